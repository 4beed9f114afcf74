// Shared by tests/js/run_cli.test.mjs and tests/browser/run_page.test.mjs (one text, two runners).
// What XLA prints after optimization: a loop fusion called from the entry, and a bitcast to a
// column-major result (a transpose under the layouts).
export const OPTIMIZED_HLO = `HloModule jit_f, entry_computation_layout={(f32[64,32]{1,0}, f32[32]{0})->f32[32,64]{0,1}}

fused_computation {
  param_0 = f32[64,32]{1,0} parameter(0)
  param_1 = f32[32]{0} parameter(1)
  broadcast = f32[64,32]{1,0} broadcast(param_1), dimensions={1}
  add = f32[64,32]{1,0} add(param_0, broadcast)
  ROOT tanh = f32[64,32]{1,0} tanh(add)
}

ENTRY main {
  x = f32[64,32]{1,0} parameter(0)
  b = f32[32]{0} parameter(1)
  f = f32[64,32]{1,0} fusion(x, b), kind=kLoop, calls=fused_computation
  ROOT t = f32[32,64]{0,1} bitcast(f)
}
`;
