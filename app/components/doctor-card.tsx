// The card of a doctor as a patient reads it before paying (worded on the server): on the payment page,
// and as a preview on the doctor's own page where they set their picture and languages.
import type { DoctorCard } from "~/domain/doctor-card";

export function DoctorCardView({ card }: { card: DoctorCard }) {
  return (
    <section
      className="flex items-center gap-3 rounded-box border border-base-300 p-3 text-start"
      aria-label={card.name}
      data-testid="paying-doctor"
    >
      {card.pictureUrl ? (
        <img src={card.pictureUrl} alt={card.pictureAlt} width={64} height={64} className="h-16 w-16 shrink-0 rounded-full object-cover" />
      ) : null}
      <div className="flex min-w-0 flex-col text-sm">
        <p className="text-base font-bold">{card.name}</p>
        {card.lines.map((line) => (
          <p key={line}>{line}</p>
        ))}
        {card.verified ? <p className="badge mt-1 h-auto badge-sm whitespace-normal badge-success">{card.verified}</p> : null}
      </div>
    </section>
  );
}
