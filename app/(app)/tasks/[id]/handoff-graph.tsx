import { agentWords } from "@/lib/plain-words";
import type { HandoffGraph } from "@/lib/run-view";

const NODE_WIDTH = 120;
const NODE_HEIGHT = 36;
const GAP = 70;

/**
 * Who handed to whom, as a small inline SVG: one box per agent (with its turns), an arrow per
 * handoff. Agents only: a person answering is not a node.
 */
export function HandoffGraphView({ graph }: { graph: HandoffGraph }) {
  if (graph.agents.length === 0) return <p className="muted">No agent has taken a turn yet.</p>;
  const x = (index: number) => 8 + index * (NODE_WIDTH + GAP);
  const position = new Map(graph.agents.map((agent, index) => [agent.name, index]));
  const width = x(graph.agents.length - 1) + NODE_WIDTH + 8;
  const height = NODE_HEIGHT + 48;
  const top = 24;
  return (
    <figure className="handoff-graph">
      <svg role="img" aria-label={`Agents: ${graph.agents.map((agent) => agentWords(agent.name)).join(", ")}`} width={width} height={height} viewBox={`0 0 ${width} ${height}`}>
        <defs>
          <marker id="handoff-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M 0 0 L 10 5 L 0 10 z" fill="currentColor" />
          </marker>
        </defs>
        {graph.edges.map((edge) => {
          const from = position.get(edge.from) ?? 0;
          const to = position.get(edge.to) ?? 0;
          const forward = to > from;
          const y = forward ? top + NODE_HEIGHT / 2 - 6 : top + NODE_HEIGHT / 2 + 6;
          const x1 = forward ? x(from) + NODE_WIDTH : x(from);
          const x2 = forward ? x(to) : x(to) + NODE_WIDTH;
          return (
            <g key={`${edge.from}-${edge.to}`} className="handoff-edge">
              <line x1={x1} y1={y} x2={x2} y2={y} stroke="currentColor" markerEnd="url(#handoff-arrow)" />
              <text x={(x1 + x2) / 2} y={forward ? top - 6 : top + NODE_HEIGHT + 18} textAnchor="middle">
                ×{edge.count}
              </text>
            </g>
          );
        })}
        {graph.agents.map((agent, index) => (
          <g key={agent.name} className="handoff-node" data-testid="handoff-agent">
            <rect x={x(index)} y={top} width={NODE_WIDTH} height={NODE_HEIGHT} rx={8} />
            <text x={x(index) + NODE_WIDTH / 2} y={top + NODE_HEIGHT / 2 + 5} textAnchor="middle">
              {agentWords(agent.name)}
            </text>
          </g>
        ))}
      </svg>
      <figcaption className="muted">
        {graph.agents.map((agent) => `${agentWords(agent.name)}: ${agent.turns} ${agent.turns === 1 ? "turn" : "turns"}`).join(" · ")}
        {graph.edges.length === 0 ? " · no handoffs" : ` · ${graph.edges.map((edge) => `${edge.from} → ${edge.to} ×${edge.count}`).join(" · ")}`}
      </figcaption>
    </figure>
  );
}
