import type { ReactElement } from "react";
import { Card } from "../components/Card";
import { isCard } from "../lib/cards";
import { sayMove } from "../lib/words";
import { seatName } from "../lib/seats";
import { MyArea, Opponents } from "./PlayerBox";
import { playsNow, whose, type BoardProps } from "./types";

/** The keys the engine puts in every view: the table around the game's own keys. */
const ENGINE_KEYS = new Set(["game", "seat", "version", "num_players", "current", "stage", "direction", "turn",
  "out", "left", "active_seats", "result"]);

function words(key: string): string {
  return key.replace(/_/g, " ");
}

/** One value of a view: cards as cards, anything else as text. */
function Value({ value }: { value: unknown }): ReactElement {
  if (isCard(value)) return <Card code={value} />;
  if (Array.isArray(value) && value.length > 0 && value.every(isCard)) {
    return <div className="hand">{value.map((code, i) => <Card key={`${code}-${i}`} code={code} />)}</div>;
  }
  if (Array.isArray(value) && value.length === 0) return <span className="muted">none</span>;
  const text = typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
  return <span>{text.length > 200 ? `${text.slice(0, 200)}…` : text}</span>;
}

/**
 * Any game without a board of its own: the view's own keys as they are (a seat's count beside its
 * player), and the legal moves the server sent, said with the game's words, as buttons.
 */
export function GenericBoard({ view, legal, seat, seats, play, busy, hideHand, owner, game }: BoardProps): ReactElement {
  const own = Object.keys(view).filter((key) => !ENGINE_KEYS.has(key));
  const perSeat = own.filter((key) => key.endsWith("_count") && Array.isArray(view[key]));
  const mine = new Set(game?.private ?? []);
  const shared = own.filter((key) => !perSeat.includes(key) && !mine.has(key));
  const infoOf = (name: string) => game?.moves.find((m) => m.name === name);
  return (
    <>
      <Opponents view={view} seat={seat} seats={seats} out={(s) => view.out.includes(s) || view.left.includes(s)}>
        {(s) => perSeat.map((key) => <span key={key} className="pill">{words(key)}: {String((view[key] as unknown[])[s])}</span>)}
      </Opponents>
      <div className="center">
        <dl className="generic-view" data-testid="generic-view">
          {view.stage && (
            <div className="generic-entry"><dt className="label-on-felt">stage</dt><dd>{view.stage}</dd></div>
          )}
          {shared.map((key) => (
            <div key={key} className="generic-entry">
              <dt className="label-on-felt">{words(key)}</dt>
              <dd><Value value={view[key]} /></dd>
            </div>
          ))}
        </dl>
      </div>
      {seat !== null && (
        <MyArea label={whose(owner, "place")} isTurn={playsNow(view, seat)}>
          {[...mine].filter((key) => key in view).map((key) => (
            <div key={key} className="generic-entry">
              <h2>{whose(owner, words(key))}</h2>
              {hideHand ? <span className="muted">hidden</span> : <Value value={view[key]} />}
            </div>
          ))}
          {perSeat.map((key) => <span key={key} className="pill">{words(key)}: {String((view[key] as unknown[])[seat])}</span>)}
          {legal.length > 0 && !hideHand && (
            <div className="btn-row" role="group" aria-label="Your moves" data-testid="generic-moves">
              {legal.map((m, i) => (
                <button key={i} type="button" className="btn btn-small" disabled={busy}
                  onClick={() => play(m.move, m.args)}>
                  {sayMove(infoOf(m.move), m, (s) => seatName(seats, s))}
                </button>
              ))}
            </div>
          )}
        </MyArea>
      )}
    </>
  );
}
