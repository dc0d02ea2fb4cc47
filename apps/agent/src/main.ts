// The edge agent (registration, config sync, nginx rendering, log shipping) is built by the edge
// data-plane work; until then this entry point only says so, so `npm run agent` fails loudly.
process.stderr.write('rampart agent: not built yet (see the edge data plane issue)\n');
process.exitCode = 1;
