// The agent's entry point. Node keeps the modules it compiled on disk from here on, so a restarted
// agent is serving (and shipping the log lines that waited) about 0.25 s of CPU sooner.
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./cli.ts');
