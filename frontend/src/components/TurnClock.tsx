// The clock of the turn being played: as a pill on the acting seat's box (for everyone), and in
// words beside the turn line.
import type { ReactElement } from "react";
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
 * is, null for this screen's only player. */
export function TurnClockLine({ clock, name }: { clock: SeatClock; name: string | null }): ReactElement {
  const { left, short } = useTurnClock(clock);
  const whose = name === null ? "your turn" : `${name}’s turn`;
  return (
    <p className={`turn-clock-line ${short}`} data-testid="turn-clock" aria-live="off">
      {clock.away ? `${name ?? "You"} ${name === null ? "are" : "is"} away: a bot plays in ${left} s` : `${clockText(left)} left for ${whose}`}
    </p>
  );
}
