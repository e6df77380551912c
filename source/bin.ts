/**
 * The executable's entry: checks the running Node before anything else is loaded (cli.tsx and its bundled
 * dependencies need Node 22.19+ and fail on older ones with messages unrelated to the cause), then loads the
 * CLI. Static imports would be evaluated before this check; the CLI is therefore a dynamic import. What it imports
 * statically (node-version, semi-space-exec, compile-cache, exit-codes) uses nothing an old Node lacks at load time.
 */
import process from 'node:process';
import {enableCompileCache} from './cli/compile-cache.js';
import {unsupportedNodeMessage} from './cli/node-version.js';
import {execWithSmallYoungGeneration} from './cli/semi-space-exec.js';
import {exitCodes} from './core/exit-codes.js';

/** True in the standalone executable's one-file build (scripts/build.mjs `--sea`): it loads no file to cache. */
declare const PLANWATCH_STANDALONE: boolean | undefined;

const unsupported = unsupportedNodeMessage(process.versions.node);
if (unsupported === undefined) {
	// First of all: Node started again with a capped young generation (source/cli/semi-space-exec.ts). The standalone
	// executable has the flag from its SEA config, and an execve of it would hand the flag to the CLI as an argument.
	if (typeof PLANWATCH_STANDALONE !== 'boolean') {
		execWithSmallYoungGeneration(process);
	}

	// Before the CLI's chunks load, so that they are read from the cache (source/cli/compile-cache.ts).
	if (typeof PLANWATCH_STANDALONE !== 'boolean') {
		enableCompileCache(process.env);
	}

	await import('./cli.js');
} else {
	process.stderr.write(`planwatch: ${unsupported}\n`);
	// exitCode, not exit(): the message must reach a pipe before the process ends.
	process.exitCode = exitCodes.usage;
}
