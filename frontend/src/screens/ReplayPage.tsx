import { useEffect, useRef, useState, type ReactElement } from "react";
import { ErrorBoundary } from "../components/ErrorBoundary";
import { boardFor } from "../games/index";
import { fetchReplay, fetchRoomMatches, resultText, seatsOf, type MatchSummary, type Replay } from "../lib/history";
import { Link } from "../lib/router";
import { useGames } from "../lib/useGames";
import { useLoad } from "../lib/useLoad";
const PLAY_EVERY_MS = 900;

/** Where the arrow keys keep their own job: typing, choosing, the slider (which steps by itself). */
const KEEPS_ARROWS = "input, textarea, select, [contenteditable]:not([contenteditable='false']), [role='slider']";

/** The arrow keys step through the replay wherever focus is on the page, but in a field. */
function useArrowSteps(step: (by: -1 | 1) => void): void {
  const latest = useRef(step);
  latest.current = step;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      if (event.target instanceof Element && event.target.closest(KEEPS_ARROWS)) return;
      if (event.key === "ArrowRight") latest.current(1);
      else if (event.key === "ArrowLeft") latest.current(-1);
      else return;
      event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}

function NoReplay({ text }: { text: string }): ReactElement {
  return (
    <div className="panel stack" role="alert">
      <h1>No replay</h1>
      <p>{text}</p>
      <div className="btn-row"><Link href="/" className="btn btn-primary">Back to the lounge</Link></div>
    </div>
  );
}

/** A finished game, step by step, as a spectator saw it. */
export function ReplayPage({ id }: { id: string }): ReactElement {
  const { data, error } = useLoad(() => fetchReplay(id), id);
  return (
    <main className="page">
      {error && <NoReplay text={error} />}
      {!data && !error && <p className="muted">Loading the game…</p>}
      {data && <ReplayView replay={data} />}
    </main>
  );
}

export function ReplayView({ replay }: { replay: Replay }): ReactElement {
  const last = replay.steps.length - 1;
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(false);
  const go = (to: number) => setIndex(Math.max(0, Math.min(last, to)));
  const atEnd = index === last;
  // At the end, Play watches the game again from its start.
  const playOrPause = () => {
    if (!playing && atEnd) setIndex(0);
    setPlaying(!playing);
  };
  useEffect(() => {
    if (!playing) return undefined;
    if (index >= last) {
      setPlaying(false);
      return undefined;
    }
    const timer = window.setTimeout(() => setIndex((i) => Math.min(last, i + 1)), PLAY_EVERY_MS);
    return () => window.clearTimeout(timer);
  }, [playing, index, last]);
  const step = replay.steps[index];
  const seats = seatsOf(replay.players);
  const lines = step.log ?? [];
  const Board = boardFor(replay.game);
  const game = useGames().data?.games.find((g) => g.slug === replay.game);
  useArrowSteps((by) => go(index + by));
  return (
    <section className="panel replay" aria-label={`Replay of ${replay.title}`}
      aria-keyshortcuts="ArrowLeft ArrowRight">
      <h1>{replay.title}: {resultText(replay.result, replay.players)}</h1>
      <p className="muted">{replay.players.map((p) => p.name).join(" · ")}</p>
      {/* At either end the buttons that lead past it are marked, not disabled: a disabled button
          would drop the focus of the keyboard player who just pressed it (go() stays in range).
          Play comes first: on a phone it takes a line of its own above the four steps. */}
      <div className="btn-row replay-steps" role="group" aria-label="Steps">
        <button type="button" className="btn btn-primary" onClick={playOrPause} disabled={last === 0}>
          {playing ? "Pause" : atEnd ? "Play from the start" : "Play"}
        </button>
        <button type="button" className="btn waits" onClick={() => go(0)} aria-disabled={index === 0 || undefined}>First</button>
        <button type="button" className="btn waits" onClick={() => go(index - 1)} aria-disabled={index === 0 || undefined}>Back</button>
        <button type="button" className="btn waits" onClick={() => go(index + 1)} aria-disabled={index === last || undefined}>Next</button>
        <button type="button" className="btn waits" onClick={() => go(last)} aria-disabled={index === last || undefined}>Last</button>
      </div>
      <label style={{ display: "flex", gap: "0.75rem", alignItems: "center", margin: "0.75rem 0" }}>
        <span>Step {index} of {last}</span>
        <input type="range" min={0} max={last} value={index} onChange={(e) => go(Number(e.target.value))} />
      </label>
      <p aria-live="polite" data-testid="replay-step">
        {lines.join(". ") || (index === 0 ? "The deal" : "…")}
        {step.actor && step.actor !== "player" && <span className="pill pill-bot stand-in-tag">Played by a bot standing in</span>}
      </p>
      <div className="replay-board" data-testid="replay-board">
        <ErrorBoundary message="This step cannot be drawn." resetKey={index}>
          <Board view={step.view} legal={[]} seat={null} seats={seats} play={async () => false} busy
            hideHand={false} owner={null} mover={step.seat} game={game} />
        </ErrorBoundary>
      </div>
    </section>
  );
}

/** The latest game of a room, ready to watch; the room's other finished games are one press away. */
export function RoomReplaysPage({ roomId, since = 0 }: { roomId: string; since?: number }): ReactElement {
  const { data, error } = useLoad<MatchSummary[]>(() => fetchRoomMatches(roomId, since), `${roomId}/${since}`);
  const [chosen, setChosen] = useState<string | null>(null);
  const games = [...(data ?? [])].sort((a, b) => a.started - b.started || a.round - b.round);
  const id = chosen ?? games[games.length - 1]?.id ?? null;
  const replay = useLoad<Replay | null>(() => (id ? fetchReplay(id) : Promise.resolve(null)), id ?? "");
  return (
    <main className="page">
      {error && <NoReplay text={error} />}
      {!data && !error && <p className="muted">Loading the game…</p>}
      {data && data.length === 0 && (
        <div className="panel"><h1>Finished games</h1><p>No finished game here yet.</p></div>
      )}
      {games.length > 1 && (
        <nav className="replay-games" aria-label="Games of this room">
          <span className="muted">Games of this room:</span>
          {games.map((m) => (
            <button key={m.id} type="button" className={`btn btn-small ${m.id === id ? "btn-primary" : ""}`}
              aria-pressed={m.id === id} onClick={() => setChosen(m.id)}
              title={`${resultText(m.result, m.players)} (${m.moves} moves)`}>
              Game {m.round}
            </button>
          ))}
          {id && <Link href={`/replay/${id}`} className="btn btn-small">Link to this game</Link>}
        </nav>
      )}
      {replay.error && <div className="panel" role="alert"><p>{replay.error}</p></div>}
      {id && !replay.data && !replay.error && <p className="muted">Loading the game…</p>}
      {replay.data && <ReplayView key={replay.data.id} replay={replay.data} />}
    </main>
  );
}
