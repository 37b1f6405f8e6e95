"""An ordinary transformers script, with nothing of attnprof in it: a small
Llama built from a config (random weights, no download) generating with the
eager attention (GEMMs + softmax) and with SDPA: one prefill of 512 tokens,
then token-by-token decode steps.  `attnprof record -o X.yaml -- python3
experiments/programs/llama_generate.py` profiles its attention calls."""
import argparse
import time

import torch
from transformers import AutoModelForCausalLM, LlamaConfig

p = argparse.ArgumentParser()
p.add_argument("--impls", default="eager,sdpa")
p.add_argument("--prompt", type=int, default=512)
p.add_argument("--new-tokens", type=int, default=8)
p.add_argument("--layers", type=int, default=2)
a = p.parse_args()

cfg = LlamaConfig(hidden_size=2048, intermediate_size=5632, num_hidden_layers=a.layers, num_attention_heads=16,
                  num_key_value_heads=4, vocab_size=32000, max_position_embeddings=4096)
torch.manual_seed(0)
ids = torch.randint(0, cfg.vocab_size, (2, a.prompt), device="cuda")
t0 = time.time()
for impl in a.impls.split(","):
    model = AutoModelForCausalLM.from_config(cfg, attn_implementation=impl).to("cuda", torch.float16).eval()
    with torch.no_grad():
        out = model.generate(ids, max_new_tokens=a.new_tokens, min_new_tokens=a.new_tokens, do_sample=False)
    torch.cuda.synchronize()
    print("llama_generate: %s: %d tokens" % (impl, out.shape[1]))
    del model
    torch.cuda.empty_cache()
print("llama_generate: done in %.2f s" % (time.time() - t0))
