import type { ContextPanel } from "@/lib/registry";

/** A workflow's context panel: its heading and key/value facts, as text (never markup). */
export function ContextFacts({ panel }: { panel: ContextPanel }) {
  return (
    <section className="card-plain" aria-label={panel.title}>
      <h2>{panel.title}</h2>
      <dl className="facts">
        {panel.facts.map((fact, index) => (
          <div key={index} className="fact">
            <dt>{fact.label}</dt>
            <dd>{fact.value || <span className="muted">none given</span>}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
