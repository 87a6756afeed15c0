import type { ReactElement } from "react";
import { clockText, useSecondsLeft } from "../lib/useCountdown";
import type { SeatClock } from "../lib/types";

/** The acting seat's clock, as a pill: its time left, or when the bot plays for a player away. */
export function ClockPill({ clock }: { clock: SeatClock }): ReactElement {
  const left = useSecondsLeft(clock.endsAt) ?? 0;
  return (
    <span className={`pill turn-clock ${left <= 10 ? "is-short" : ""}`} data-testid="seat-clock"
      aria-label={clock.away ? `Away: a bot plays in ${left} seconds` : `${left} seconds left`}>
      {clock.away ? `Bot plays in ${left} s` : `${clockText(left)} left`}
    </span>
  );
}
