#!/usr/bin/env python3
"""How long after its time limit a run reports (every run must end by its limit).

Runs precis-verify -t T on one input for several T, PAR runs at once (to load the
machine as CI does), and prints the worst delays from the limit to the first line of
the report and to the process's exit, and whether the watchdog (1 s past the limit)
ended the run. A negative delay is a run that ended before its limit (it decided, or a
solver call was declined because it could not finish in time).

  bench/limit_latency.py CLI MODEL ANALYSIS [PAR] [T1,T2,...]
"""

import subprocess
import sys
import threading
import time


def main():
    cli, model, analysis = sys.argv[1:4]
    par = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    limits = [float(x) for x in (sys.argv[5] if len(sys.argv) > 5 else
                                 "2,2.5,3,3.5,4,4.5,5,5.5,6,6.5,7,8").split(",")]
    res = []

    def one(t):
        s = time.monotonic()
        p = subprocess.Popen([cli, "-q", "-a", analysis, "-t", str(t), model],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             stdin=subprocess.DEVNULL)
        line = p.stdout.readline()
        first = time.monotonic() - s - t
        _, err = p.communicate()
        end = time.monotonic() - s - t
        res.append((first, end, t, b"watchdog" in err, line.strip().decode()))

    for t in limits:
        ths = [threading.Thread(target=one, args=(t,)) for _ in range(par)]
        for th in ths:
            th.start()
        for th in ths:
            th.join()
    res.sort()
    print(f"{len(res)} runs, {par} at once; watchdog: {sum(r[3] for r in res)}")
    for r in res[-5:]:
        print("report %+.2f s, exit %+.2f s after the limit (-t %s), watchdog %s: %s" % r)


if __name__ == "__main__":
    main()
