// The clock of the turn being played: as a pill on the acting seat's box (for everyone), and in
// words beside the turn line.
import { useEffect, useState, type ReactElement } from "react";
import { clockText, useSecondsLeft } from "../lib/useCountdown";
import type { SeatClock } from "../lib/types";
import { SaidAs } from "./SaidAs";

/** The clock shows it is running out from this many seconds left. */
const SHORT_SECONDS = 10;

/** The seconds left on a turn's clock, ticking, and the class that marks it running out. */
function useTurnClock(clock: SeatClock): { left: number; short: string } {
  const left = useSecondsLeft(clock.endsAt) ?? 0;
  return { left, short: left <= SHORT_SECONDS ? "is-short" : "" };
}

/** The acting seat's clock, as a pill: its time left, or when the bot plays for a player away. */
export function ClockPill({ clock }: { clock: SeatClock }): ReactElement {
  const { left, short } = useTurnClock(clock);
  return (
    <span className={`pill turn-clock ${short}`} data-testid="seat-clock">
      <SaidAs words={clock.away ? `Away: a bot plays in ${left} seconds` : `${left} seconds left`}>
        {clock.away ? `Bot plays in ${left} s` : `${clockText(left)} left`}
      </SaidAs>
    </span>
  );
}

/** The clock of the turn being played, in words, beside the turn line: `name` is whose turn it
 * is, null for this screen's only player; `here`: that player is one of this screen's (hot seat),
 * holding it now, so the turn is told to them as theirs. The turn line above already names the
 * player ("Grace’s turn", "Your turn, Grace"): the clock leaves the name out, which a long name
 * would otherwise stretch over several lines of a phone. */
export function TurnClockLine({ clock, name, here = false }: {
  clock: SeatClock; name: string | null; here?: boolean;
}): ReactElement {
  const { left, short } = useTurnClock(clock);
  const mine = name === null || here;
  const whose = name === null ? "your turn" : here ? `your turn, ${name}` : `${name}’s turn`;
  const warning = useRunningOut(clock, mine && !clock.away ? whose : null, left);
  return (
    <>
      <p className={`turn-clock-line ${short}`} data-testid="turn-clock" aria-live="off">
        {visibleClockText(clock.away, name, left)}
      </p>
      <span className="visually-hidden" role="status" data-testid="turn-clock-warning">{warning}</span>
    </>
  );
}

/** The clock line's words: with the player's name left out when the turn line says it. */
function visibleClockText(away: boolean, name: string | null, left: number): string {
  if (away) return name === null ? `You are away: a bot plays in ${left} s` : `Away: a bot plays in ${left} s`;
  return name === null ? `${clockText(left)} left for your turn` : `${clockText(left)} left`;
}

/** Said once to a screen reader (the ticking line is not read): the turn of this screen's player
 * (`whose`, null for anyone else's) is running out, as the clock turns to its running-out look;
 * empty before. */
function useRunningOut(clock: SeatClock, whose: string | null, left: number): string {
  const [said, setSaid] = useState("");
  useEffect(() => setSaid(""), [clock.endsAt]);
  useEffect(() => {
    if (whose && !said && left > 0 && left <= SHORT_SECONDS) {
      setSaid(`${left} ${left === 1 ? "second" : "seconds"} left for ${whose}`);
    }
  }, [whose, left, said]);
  return whose ? said : "";
}
