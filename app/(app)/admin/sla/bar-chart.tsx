/** A small labelled bar chart, rendered on the server as SVG: one bar per bucket, its count above it. */
export function BarChart({ title, labels, counts, unit }: { title: string; labels: readonly string[]; counts: readonly number[]; unit: string }) {
  const width = 360;
  const height = 150;
  const top = 18;
  const bottom = 22;
  const gap = 10;
  const barWidth = (width - gap * (labels.length + 1)) / labels.length;
  const max = Math.max(1, ...counts);
  const total = counts.reduce((sum, count) => sum + count, 0);
  return (
    <figure className="bar-chart">
      <figcaption>
        {title} <span className="muted">({total} {unit})</span>
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-label={`${title}: ${labels.map((label, index) => `${label} ${counts[index] ?? 0}`).join(", ")}`}>
        <line x1={0} x2={width} y1={height - bottom} y2={height - bottom} className="axis" />
        {labels.map((label, index) => {
          const count = counts[index] ?? 0;
          const barHeight = ((height - top - bottom) * count) / max;
          const x = gap + index * (barWidth + gap);
          const y = height - bottom - barHeight;
          return (
            <g key={label}>
              <rect x={x} y={y} width={barWidth} height={barHeight} rx={3} className={count === 0 ? "bar empty" : "bar"} />
              <text x={x + barWidth / 2} y={y - 4} textAnchor="middle" className="count">
                {count}
              </text>
              <text x={x + barWidth / 2} y={height - 6} textAnchor="middle" className="label">
                {label}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
