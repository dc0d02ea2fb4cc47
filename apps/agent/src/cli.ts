// The agent process: options, start, and a clean stop on SIGTERM or SIGINT (main.ts loads it).
import { Agent } from './agent.ts';
import { createLogger, errorText } from './logger.ts';
import { OptionsError, parseOptions } from './options.ts';

const log = createLogger();
let agent: Agent;
try {
  agent = new Agent(parseOptions(process.argv.slice(2)), log);
} catch (error) {
  if (error instanceof OptionsError && error.help) {
    process.stdout.write(error.message);
    process.exit(0);
  }
  process.stderr.write(`${errorText(error)}\n`);
  process.exit(2);
}

let stopping = false;
const stop = (signal: string) => {
  if (stopping) return;
  stopping = true;
  log.info('stopping', { signal });
  agent.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      log.error('stop failed', { error: errorText(error) });
      process.exit(1);
    },
  );
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));

await agent.start();
log.info('agent started', { data_dir: agent.paths.dataDir });
await agent.finished;
if (!stopping) {
  await agent.stop();
  process.exit(1);
}
