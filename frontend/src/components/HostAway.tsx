import { useEffect, useState, type ReactElement } from "react";
import { hostName } from "../lib/seats";
import type { Room } from "../lib/types";
import { useSecondsLeft } from "../lib/useCountdown";

/** How long the host is gone before the guests are told (ms): a server restart, or another
 * process of a cluster taking the room over, brings them back sooner, and a banner that only
 * flashed would alarm for nothing. Sooner when the room closes sooner than that. */
export const HOST_AWAY_HOLD_MS = 2_000;

/** What the guests see while the host is away: who, and when the room closes. The live region is
 * there before the banner, so that screen readers say it once when it comes; the seconds tick
 * silently (aria-live off), or they would be read out every second. */
export function HostAway({ room, closesAt }: { room: Room; closesAt: number | null }): ReactElement {
  const left = useSecondsLeft(closesAt);
  const [goneSince, setGoneSince] = useState<number | null>(null);
  useEffect(() => {
    setGoneSince((since) => (closesAt === null ? null : since ?? Date.now()));
  }, [closesAt]);
  const host = hostName(room, "The host");
  // useSecondsLeft renders four times a second while there is a moment: the hold ends on time.
  const shown = left !== null && closesAt !== null && goneSince !== null
    && Date.now() >= Math.min(goneSince + HOST_AWAY_HOLD_MS, closesAt - HOST_AWAY_HOLD_MS);
  return (
    <div role="status">
      {shown && (
        <div className="banner banner-warn" data-testid="host-away">
          <span>
            {left > 0 ? `${host} lost connection; ` : `${host} did not come back: `}
            <span aria-live="off">
              {left > 0 ? `the room closes in ${left} s unless they come back.` : "the room is closing…"}
            </span>
          </span>
        </div>
      )}
    </div>
  );
}
