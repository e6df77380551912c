/**
 * The npm bin runs with V8's young generation capped by `--max-semi-space-size`, which V8 reads only when the
 * heap is set up: from Node's command line or NODE_OPTIONS, never from inside the program (v8.setFlagsFromString
 * sets the flag and nothing reads it again; measured: a churning heap's young generation 41 MiB with it, 7 MiB on
 * the command line). A shebang takes no portable arguments, so the bin, before it loads the CLI, replaces its own
 * process with Node started again with the flag (and a smaller V8 thread pool, below) in front of the same
 * arguments (process.execve, POSIX, Node 22.15+): the same pid, terminal and environment, nothing read or written
 * yet. The standalone executable gets the flags from its SEA config (scripts/release/sea-config.mjs) and never
 * comes here. Where it cannot (Windows, an older Node)
 * the CLI's growth cap (young-generation.ts) is what is left; it cannot bound the growth inside one long
 * synchronous burst, such as the first LIST, since V8 reports a GC to JavaScript only after it.
 * Measured in docs/performance.md "Session 8: memory"; test/cli/semi-space-exec.test.ts checks the cap and the pid.
 */
import path from 'node:path';

/** 4 MiB semi-spaces: side by side with 1000 ActionSets RSS 190–195 → 154–188 MiB, CPU level at 10 updates/s. */
export const semiSpaceMiB = 4;
export const semiSpaceFlag = `--max-semi-space-size=${semiSpaceMiB}`;
/**
 * Two V8 worker threads (concurrent marking, compiling) instead of Node's four: glibc gives each thread that
 * allocates its own malloc arena and keeps what they free; RSS ~9 MiB less (147–150 against 156–162 MiB), CPU level.
 */
export const workerThreads = 2;
/**
 * V8's efficiency mode, which an embedder turns on for work with no latency demands (Node never does): garbage
 * collection without its background threads and a later tier-up to Turbofan. planwatch's latency demand is one
 * frame, which it keeps: side by side with 1000 ActionSets (docs/performance.md, "Session 11: V8's efficiency
 * mode") CPU at 10 updates/s 4.8–6.2 → 4.2 %, at 100/s 24.6–29.8 → 20.0–24.8 %, RSS 154–176 → 138–143 MiB, event →
 * screen p99 no worse. Every Node with process.execve (22.15+: V8 12.4) knows the flag. The npm bin's alone: in a
 * standalone executable (its SEA config's execArgv) the same flag leaves the young generation uncapped (a burst's
 * new space 23.5 MiB against 4 without it; test/packaging/sea-config.test.ts).
 */
export const efficiencyFlag = '--efficiency-mode';
/** The Node flags the CLI runs with (also the standalone executable's, scripts/release/sea-config.mjs). */
export const execFlags: readonly string[] = [semiSpaceFlag, `--v8-pool-size=${workerThreads}`];
/** The flags the npm bin runs Node again with. */
export const binFlags: readonly string[] = [...execFlags, efficiencyFlag];

/** Commands that end at once (a shell's TAB, --version): a second start of Node would only cost them time. */
const quickCommands = new Set(['__complete', 'completion', 'version', '--version', 'help', '--help', '-h']);

/**
 * Flags after which running again would change what the user asked for: their own young generation size, a
 * debugger or watcher attached to this process, or a profiler that samples with SIGPROF (`--cpu-prof`, `--prof`):
 * a SIGPROF still pending at execve(2) stays pending across it and, before the new Node has a handler, ends it
 * (seen: 2 of 4 runs of `os-cost.mjs --node-flags "--cpu-prof …"` killed by signal 27, nothing on screen).
 */
const leaveAlone = /--max-semi-space-size|--min-semi-space-size|--max-heap-size|--inspect|--debug|--watch|--cpu-prof|--prof\b/;

export type ExecTarget = {
	readonly execPath: string;
	readonly execArgv: readonly string[];
	readonly argv: readonly string[];
	readonly env: Readonly<Record<string, string | undefined>>;
};

/** Node's arguments for running this bin again with execFlags, or undefined to go on as it is. */
export function semiSpaceExecArgs(target: ExecTarget): string[] | undefined {
	const script = target.argv[1];
	if (script === undefined || target.execArgv.some(arg => leaveAlone.test(arg)) || leaveAlone.test(target.env['NODE_OPTIONS'] ?? '')) {
		return undefined;
	}

	const first = target.argv[2];
	if ((first !== undefined && quickCommands.has(first)) || /^kubectl_complete-planwatch/i.test(path.basename(script))) {
		return undefined;
	}

	// The user's own flags after these: for Node, the last of a flag given twice counts.
	return [target.execPath, ...binFlags, ...target.execArgv, ...target.argv.slice(1)];
}

type ExecProcess = ExecTarget & {readonly execve?: (file: string, args: readonly string[], env: NodeJS.ProcessEnv) => never};

/** Replace this process with Node run again with the cap, where it may and can; returns only if it does not. */
export function execWithSmallYoungGeneration(proc: ExecProcess & {readonly env: NodeJS.ProcessEnv}): void {
	if (typeof proc.execve !== 'function') {
		return;
	}

	const args = semiSpaceExecArgs(proc);
	if (args === undefined) {
		return;
	}

	try {
		proc.execve(proc.execPath, args, proc.env);
	} catch {
		// execve(2) failed (the binary moved, a sandbox refuses it): this process runs on unchanged, with the growth cap.
	}
}
