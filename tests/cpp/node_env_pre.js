// --pre-js of the wasm test binaries: Emscripten's getenv() reads its own ENV object, not
// process.env, so copy the environment in (ROOFLINE_CORPUS must reach the corpus tests).
Module['preRun'] = Module['preRun'] || [];
Module['preRun'].push(function () {
  if (typeof process === 'object' && process.env) Object.assign(ENV, process.env);
});
