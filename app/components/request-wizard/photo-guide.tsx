import type { PhotoStepWords } from "~/domain/views/photo-step-words";

/** How to take photos a doctor can use: four small drawings (static files, no script) and a line each. */
export function PhotoGuide({ guide }: { guide: PhotoStepWords["guide"] }) {
  return (
    <section className="rounded-box border border-base-300 p-3" aria-labelledby="photo-guide-heading" data-testid="photo-guide">
      <h3 id="photo-guide-heading" className="mb-2 font-bold">
        {guide.title}
      </h3>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {guide.examples.map((example) => (
          <li key={example.image} className="flex flex-col gap-1 text-sm">
            <img src={example.image} alt={example.alt} width={120} height={90} className="h-auto w-full max-w-32 rounded" />
            <span className="font-medium">{example.title}</span>
            <span className="text-base-content/80">{example.text}</span>
          </li>
        ))}
      </ul>
      <p className="mt-2 text-sm">{guide.describe}</p>
    </section>
  );
}
