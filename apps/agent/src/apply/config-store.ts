import { chmod, mkdir, readdir, readlink, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ApplyError } from '@rampart/contracts';
import { readJsonFile, writeFileAtomic } from '../fs-atomic.ts';
import type { AgentPaths } from '../paths.ts';
import type { RenderedTree } from '../render/tree.ts';

/** The config tree that was last proven live. */
export interface ProvenConfig {
  gen: string;
  version: number;
  token: string;
  /** The tree proven before this one, kept on disk. */
  previous?: string;
  /** Digest of what was rendered (snapshot without version and jobs, render options). */
  digest?: string;
  /** Digest of the tree but its routing data (shapeOf): a tree of the same shape is swapped in. */
  shape?: string;
  /** What was left out of this tree. */
  errors?: ApplyError[];
  /** How long `nginx -t` took on this tree: starting or reloading with it takes about as long. */
  testMs?: number;
  /** The cache directory this tree's nginx uses (/config/res may move it out of the data directory). */
  cacheDir?: string;
}

/**
 * Config trees on disk: each render goes to its own directory, `current` points at the live one,
 * and `proven.json` names the last one a probe proved live (kept across restarts).
 */
export class ConfigStore {
  private readonly paths: AgentPaths;

  constructor(paths: AgentPaths) {
    this.paths = paths;
  }

  genDir(gen: string): string {
    return join(this.paths.confRoot, gen);
  }

  confPath(gen: string): string {
    return join(this.genDir(gen), 'nginx.conf');
  }

  /** The path nginx runs with: through the `current` link, so a reload reads whatever it points at. */
  get liveConfPath(): string {
    return join(this.paths.currentLink, 'nginx.conf');
  }

  /** Writes a rendered tree to a new directory (certificates 0600 in a 0700 directory). */
  async write(gen: string, tree: RenderedTree): Promise<string> {
    const dir = this.genDir(gen);
    const temp = `${dir}.tmp`;
    await rm(temp, { recursive: true, force: true });
    await mkdir(temp, { recursive: true, mode: 0o755 });
    const dirs = new Set(tree.files.map((file) => dirname(file.path)).filter((d) => d !== '.'));
    for (const sub of ['sites', 'streams', ...dirs]) {
      await mkdir(join(temp, sub), { recursive: true, mode: sub === 'certs' ? 0o700 : 0o755 });
    }
    for (const file of tree.files) {
      await writeFile(join(temp, file.path), file.content, { mode: file.mode });
      await chmod(join(temp, file.path), file.mode);
    }
    await rm(dir, { recursive: true, force: true });
    await rename(temp, dir);
    return dir;
  }

  /** Points `current` at `gen` atomically (a new link renamed over the old one). */
  async activate(gen: string): Promise<void> {
    const temp = `${this.paths.currentLink}.tmp`;
    await rm(temp, { force: true });
    await symlink(join('conf', gen), temp);
    await rename(temp, this.paths.currentLink);
  }

  async deactivate(): Promise<void> {
    await rm(this.paths.currentLink, { force: true });
  }

  async currentGen(): Promise<string | null> {
    try {
      const target = await readlink(this.paths.currentLink);
      return target.split('/').pop() ?? null;
    } catch {
      return null;
    }
  }

  async proven(): Promise<ProvenConfig | null> {
    const value = (await readJsonFile(this.paths.provenFile)) as Partial<ProvenConfig> | null;
    if (
      !value ||
      typeof value.gen !== 'string' ||
      typeof value.version !== 'number' ||
      typeof value.token !== 'string'
    ) {
      return null;
    }
    const proven: ProvenConfig = { gen: value.gen, version: value.version, token: value.token };
    if (typeof value.previous === 'string') proven.previous = value.previous;
    if (typeof value.digest === 'string') proven.digest = value.digest;
    if (typeof value.shape === 'string') proven.shape = value.shape;
    if (Array.isArray(value.errors)) proven.errors = value.errors;
    if (typeof value.testMs === 'number') proven.testMs = value.testMs;
    if (typeof value.cacheDir === 'string') proven.cacheDir = value.cacheDir;
    return proven;
  }

  async markProven(proven: ProvenConfig): Promise<void> {
    await writeFileAtomic(this.paths.provenFile, `${JSON.stringify(proven)}\n`);
  }

  /** Removes every tree but the ones named. */
  async prune(keep: ReadonlyArray<string | null | undefined>): Promise<void> {
    const wanted = new Set(keep.filter((gen): gen is string => typeof gen === 'string'));
    let entries: string[];
    try {
      entries = await readdir(this.paths.confRoot);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!wanted.has(entry)) await rm(join(this.paths.confRoot, entry), { recursive: true, force: true });
    }
  }
}
