"""Print why the cases of recorded OpInfo entries differ from torch:

    cd tests && python -m conformance.explain add nn.functional.conv2d [--kind grad] [--all]
"""

import argparse

from . import replay


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("entries", nargs="+", help="entry ids or op names")
    p.add_argument("--kind", help="only cases of this kind (fwd, grad, vmap, inplace, err)")
    p.add_argument("--all", action="store_true", help="also the agreeing cases")
    args = p.parse_args(argv)
    want = set(args.entries)
    for entry, name, fname in replay.entries():
        if entry not in want and name not in want:
            continue
        meta, outcomes = replay.replay_entry(fname)
        print(f"== {entry} ({meta['call']})")
        for case, outcome in outcomes.items():
            if args.kind and not case.startswith(args.kind + ":"):
                continue
            if outcome == "ok" and not args.all:
                continue
            print(f"  {case}: {outcome}  {getattr(outcome, 'detail', '')}")


if __name__ == "__main__":
    main()
