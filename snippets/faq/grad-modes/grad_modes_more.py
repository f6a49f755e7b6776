"""FAQ: grad modes and threads: inference_mode() and no_grad() are
thread-local."""

# --8<-- [start:inference-mode-threads]
import threading

import torch

w = torch.ones(2, requires_grad=True)
seen = {}


def worker():
    seen["inference_mode"] = torch.is_inference_mode_enabled()  # (1)!
    seen["records a graph"] = (w * 2).requires_grad


with torch.inference_mode():  # (2)!
    t = threading.Thread(target=worker)
    t.start()
    t.join()
    here = (w * 2).requires_grad
print("main thread, inside inference_mode: records a graph =", here)
print("thread started inside it:", seen)
assert not here
assert seen == {"inference_mode": False, "records a graph": True}

entered, checked = threading.Event(), threading.Event()


def infer():
    with torch.inference_mode():  # (3)!
        entered.set()
        checked.wait()


t = threading.Thread(target=infer)
t.start()
entered.wait()
main_records = (w * 2).requires_grad
checked.set()
t.join()
print("main thread while the other is in inference_mode:", main_records)
assert main_records and not torch.is_inference_mode_enabled()
# --8<-- [end:inference-mode-threads]
