import type { ReactNode } from "react";

/** The narrow, centred card that account pages (sign in, sign up, consent…) sit in. */
export function AuthCard({ title, intro, children }: { title: string; intro?: string; children: ReactNode }) {
  return (
    <section className="mx-auto w-full max-w-md px-4 py-8">
      <div className="card border border-base-300 bg-base-100 shadow-sm">
        <div className="card-body gap-4 p-5 sm:p-6">
          <h1 className="text-2xl font-bold">{title}</h1>
          {intro ? <p className="text-base-content/80">{intro}</p> : null}
          {children}
        </div>
      </div>
    </section>
  );
}
