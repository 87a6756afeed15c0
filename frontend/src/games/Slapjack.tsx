import { useEffect, useRef, useState, type CSSProperties, type ReactElement } from "react";
import { Card } from "../components/Card";
import { cardName } from "../lib/cards";
import { FaceDownHand, PlayerBox } from "./PlayerBox";
import { fromOffset, movesNamed, othersAround, seatName, type BoardProps } from "./types";

interface SlapEvent {
  version: number;
  seat: number;
  kind: string;
  text: string;
}

const TILT = [-8, 5, -2];

function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return Boolean(el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable));
}

/** Slapjack: the central pile, everyone's face-down stacks, and a big slap button (space bar). */
export function Slapjack(props: BoardProps): ReactElement {
  const { view, legal, seat, seats, play, busy, mover, owner } = props;
  const pile = (view.pile as string[]) ?? [];
  const counts = (view.stacks_count as number[]) ?? [];
  const events = (view.events as SlapEvent[]) ?? [];
  const latest = events[events.length - 1];
  const slap = movesNamed(legal, "slap").find((m) => m.args.length === 1) ?? movesNamed(legal, "slap")[0];
  const turnUp = movesNamed(legal, "play")[0];
  const [pressed, setPressed] = useState(false);
  const slapRef = useRef<() => void>(() => undefined);
  const release = useRef<number | undefined>(undefined);

  slapRef.current = () => {
    if (!slap) return;
    setPressed(true);
    window.clearTimeout(release.current);
    release.current = window.setTimeout(() => setPressed(false), 120);
    play("slap", slap.args);
  };
  // The button's pressed look ends with the board: no state set after it is gone.
  useEffect(() => () => window.clearTimeout(release.current), []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.code !== "Space" && event.key !== " ") return;
      if (typingIn(event.target) || event.repeat) return;
      // A focused button would also be clicked by the space bar: slap once, not twice.
      event.preventDefault();
      slapRef.current();
    };
    // A focused button is pressed on the space bar's release: that press belongs to the slap.
    const onKeyUp = (event: KeyboardEvent) => {
      if ((event.code === "Space" || event.key === " ") && !typingIn(event.target)) event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    window.addEventListener("keyup", onKeyUp);
    return () => {
      window.removeEventListener("keydown", onKey);
      window.removeEventListener("keyup", onKeyUp);
    };
  }, []);

  const top3 = pile.slice(-3);
  const offset = fromOffset(mover, seat) as CSSProperties;
  const names = (text: string) => text.replace(/Seat (\d+)/g, (_m, n: string) => seatName(seats, Number(n)));

  return (
    <>
      <div className="opponents">
        {othersAround(view.num_players, seat).map((s) => (
          <PlayerBox key={s} seat={s} info={seats[s]} isTurn={view.current === s && !view.result}
            out={view.left.includes(s)} outLabel="Left">
            <FaceDownHand count={counts[s] ?? 0} label={`${seatName(seats, s)}'s stack`} />
          </PlayerBox>
        ))}
      </div>

      <div className="center">
        <div className="sj-row">
          <div style={{ display: "flex", flexDirection: "column", alignItems: "center", gap: "0.3rem" }}>
            <span className="label-on-felt">Pile · {pile.length} card{pile.length === 1 ? "" : "s"}</span>
            <div className="sj-pile" role="group" aria-label={`The pile, ${pile.length} cards`} data-testid="sj-pile">
              {top3.length === 0 && <div className="empty-slot" style={{ position: "absolute", inset: "12%" }}>empty</div>}
              {top3.map((code, i) => {
                const isTop = i === top3.length - 1;
                const rotate = TILT[(pile.length - top3.length + i) % 3];
                return (
                  <Card key={`${code}-${pile.length - top3.length + i}`} code={code} animate={isTop}
                    label={isTop ? `Top of the pile: ${cardName(code)}` : undefined}
                    style={{ ...(isTop ? offset : {}), transform: `rotate(${rotate}deg)`,
                      marginLeft: `calc(var(--card-w) * -0.5 + ${(i - 1) * 14}px)` }} />
                );
              })}
            </div>
          </div>
          {seat !== null && <button type="button" className={`slap-btn ${pressed ? "pressed" : ""}`} disabled={!slap}
            onClick={() => slapRef.current()} aria-keyshortcuts="Space" data-testid="slap">
            SLAP!
            <small>space bar</small>
          </button>}
        </div>
        {latest && (
          <p key={latest.version} className="notice" role="status"
            style={{ margin: 0 }}>
            {names(latest.text)}
          </p>
        )}
      </div>

      {seat !== null && (
        <div className={`me-area ${view.current === seat && !view.result ? "is-turn" : ""}`} role="group"
          aria-label="Your stack">
          <h3>{owner ? `${owner}’s stack` : "Your stack"}</h3>
          <div className="btn-row" style={{ justifyContent: "center", gap: "1.2rem" }}>
            <FaceDownHand count={counts[seat] ?? 0} label="Your stack" />
            <button type="button" className="btn btn-accent" disabled={!turnUp || busy} data-testid="turn-up"
              onClick={() => play("play", [])}>
              Turn up a card
            </button>
          </div>
        </div>
      )}
    </>
  );
}
