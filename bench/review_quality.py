"""How far the coach's figures (service/rules/coach, issue 41) can be trusted, against the real deal.

    .venv/bin/python bench/review_quality.py [--matches 6] [--hands 2] [--deals 32] [--every 3]

Decision states come from seeded self-play (selfplay.play_match, one decision in ten at random),
every `--every`-th decision the reviewer weighs. At each, every option is weighed from the seat's
view (weighing.weigh, seed "a"), and also played out once on the real deal (the opponent's real
hand and the stock's real order, both sides the reference policy, as the play-outs play): the true
outcome. Printed: the calibration of the expected points against the true outcome (least-squares
slope of true on expected, and the RMSE), the true gain of the option the review calls best over
the option chosen (mean with a 95% interval), the spread of the points given away (for the labels'
thresholds) and the median standard error, the labels' shares, the stability of the figures across
seeds (the same states weighed with seed "b": the mean absolute difference of an option's expected
points, and the share of decisions whose best option is the same), and the CPU per decision.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from service.rules.coach import label, seat_view, walk, weigh
from service.rules.coach.hands import bit, bits
from service.rules.coach.selfplay import play_match
from service.rules.coach.weighing import _player, key, reviewed


def states(matches: int, hands: int, every: int):
    for game in range(matches):
        transcript = play_match(3000 + game, blunders=0.1, max_hands=hands)
        count = 0
        for match, seat, action, record, index in walk(transcript):
            if match.to_move != seat or action.get("type") in ("resign", "claim_timeout"):
                continue
            view = seat_view(match, seat, record)
            if not reviewed(view):
                continue
            count += 1
            if count % every == 0:
                theirs = bits(match.hands[1 - seat])
                stock = [bit(c) for c in reversed(match.stock)]  # the engine's top first; play-outs draw from the end
                yield view, action, theirs, stock, f"{game}:{index}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--deals", type=int, default=32)
    parser.add_argument("--every", type=int, default=3)
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}; {vars(args)}")
    pairs, gains, given, ses, labels, drift, same, cpu = [], [], [], [], Counter(), [], 0, 0.0
    n = 0
    for view, chosen, theirs, stock, name in states(args.matches, args.hands, args.every):
        started = time.process_time()
        first = weigh(view, f"a:{name}", args.deals, chosen)
        cpu += time.process_time() - started
        second = weigh(view, f"b:{name}", args.deals, chosen)
        n += 1
        true = {key(f.action): _player(view, f.action)(theirs, list(stock)) for f in first.figures}
        for figure in first.figures:
            pairs.append((figure.expected, true[key(figure.action)]))
            other = second.of(figure.action)
            if other is not None:
                drift.append(abs(other.expected - figure.expected))
        same += key(first.best.action) == key(second.best.action)
        mine = first.of(chosen)
        gains.append(true[key(first.best.action)] - true[key(chosen)])
        if mine.behind > 0:
            given.append(mine.behind)
            ses.append(mine.se)
        labels[label(mine.behind, mine.se)] += 1
    xs, ys = [p[0] for p in pairs], [p[1] for p in pairs]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    slope = sum((x - mx) * (y - my) for x, y in pairs) / sum((x - mx) ** 2 for x in xs)
    rmse = statistics.fmean([(x - y) ** 2 for x, y in pairs]) ** 0.5
    spread = statistics.pstdev(ys)
    gain, half = statistics.fmean(gains), 1.96 * statistics.stdev(gains) / len(gains) ** 0.5
    given.sort()
    q = lambda p: given[int(p * (len(given) - 1))] if given else 0.0
    print(f"decisions {n}, options {len(pairs)}, deals {args.deals}, CPU {cpu / n:.3f} s a decision")
    print(f"calibration: slope {slope:.2f}, RMSE {rmse:.1f} points (true outcomes' SD {spread:.1f})")
    print(f"true gain of the review's best over the chosen: {gain:+.2f} points ({gain - half:+.2f} to {gain + half:+.2f})")
    print(f"points given away where not 0 ({len(given)}): median {q(.5):.1f}, p75 {q(.75):.1f}, p90 {q(.9):.1f}, "
          f"p97 {q(.97):.1f}; median SE {statistics.median(ses) if ses else 0:.1f}")
    print("labels: " + ", ".join(f"{name} {count / n:.0%}" for name, count in labels.most_common()))
    print(f"stability across seeds: mean |expected a - b| {statistics.fmean(drift):.2f} points, "
          f"same best option {same / n:.0%}")


if __name__ == "__main__":
    main()
