"""Long calls release the GIL: Python threads run while hes computes, and
systems on several threads give the results of one."""
import threading
import time

import numpy as np

import hes


def test_gil_released_during_sweep():
    """A sweep on another thread: this thread's Python loop keeps running
    meanwhile (with the GIL held by the sweep it would stall until the end)."""
    done = threading.Event()
    out = {}

    def work():
        out["r"] = hes.sweep("slip-hopper", grid={"K": np.linspace(0, 0.2, 40),
                                                  "thetadot": np.linspace(-1, 1, 10)})
        done.set()

    t = threading.Thread(target=work)
    start = time.perf_counter()
    t.start()
    ticks = 0
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    t.join()
    elapsed = time.perf_counter() - start
    assert out["r"].psi.shape == (400,)
    # about one tick per millisecond of the sweep; a held GIL gives ~1
    assert elapsed < 0.05 or ticks > 0.2 * elapsed / 0.001


def test_threads_give_the_same_results():
    values = [(0.05 * i, 0.1 * i) for i in range(8)]
    serial = [hes.analyze("slip-hopper", K=k, thetadot=d).psi for k, d in values]
    got = [None] * len(values)

    def one(i):
        k, d = values[i]
        got[i] = hes.problem("slip-hopper", K=k, thetadot=d).analyze().psi

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(values))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == serial


def test_ctrl_c_does_not_stop_a_later_sweep_on_another_thread():
    """After a sweep stopped by Ctrl-C, the next sweep, on a worker thread
    (where no handler is installed), runs to its end."""
    import os
    import signal
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        hes.sweep("slip-hopper", grid={"K": np.linspace(0, 0.2, 100),
                                        "thetadot": np.linspace(-1, 1, 100)})
        raise AssertionError("the sweep was not interrupted")
    except KeyboardInterrupt:
        pass
    finally:
        timer.cancel()
    out = {}
    t = threading.Thread(target=lambda: out.update(r=hes.sweep(
        "slip-hopper", grid={"K": [0.0, 0.1, 0.2]})))
    t.start()
    t.join()
    assert list(out["r"].status) == ["ok"] * 3
