/**
 * `planwatch version` / `--version`: the version alone, or with `-o json` what a bug report needs (the commit
 * the bin was built from, the Node.js running it, the platform, and whether it is the standalone executable).
 */
import {version} from './version.js';

/** Replaced by scripts/build.mjs (esbuild `define`); absent when the sources run unbundled (tests). */
declare const PLANWATCH_COMMIT: string | undefined;

export type BuildInfo = {
	readonly version: string;
	/** Short git commit, `-dirty` when built from uncommitted changes; `unknown` outside a checkout. */
	readonly commit: string;
	/** process.version, e.g. `v26.10.0`. */
	readonly node: string;
	/** `linux-x64`, `darwin-arm64`, `win32-x64`… (Node's platform and arch names). */
	readonly platform: string;
	/** True in the single executable (no Node.js installed), false under a Node.js. */
	readonly standalone: boolean;
};

export function buildInfo(
	runtime: {readonly node: string; readonly platform: string; readonly arch: string; readonly standalone: boolean},
): BuildInfo {
	return {
		version,
		commit: typeof PLANWATCH_COMMIT === 'string' ? PLANWATCH_COMMIT : 'unknown',
		node: runtime.node,
		platform: `${runtime.platform}-${runtime.arch}`,
		standalone: runtime.standalone,
	};
}

export function formatVersion(info: BuildInfo, output: 'text' | 'json'): string {
	return output === 'json' ? `${JSON.stringify(info)}\n` : `${info.version}\n`;
}
