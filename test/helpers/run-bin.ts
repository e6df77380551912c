/**
 * Run the built bin (dist/planwatch.js) the way a user's shell does: a child process with pipes, or in a
 * pseudo-terminal through node-pty. `buildBin()` builds it once per test file (the build is atomic, so test
 * files may build and run in parallel).
 */
import {spawn, spawnSync} from 'node:child_process';
import {fileURLToPath} from 'node:url';
import pty from 'node-pty';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const binPath = `${repoRoot}dist/planwatch.js`;

/** `node scripts/build.mjs --quiet` with the Node that runs the tests (the pinned Node 26 under npm). */
export function buildBin(): void {
	const result = spawnSync(process.execPath, ['scripts/build.mjs', '--quiet'], {cwd: repoRoot, encoding: 'utf8'});
	if (result.status !== 0) {
		throw new Error(`build failed (${String(result.status)}):\n${result.stdout}${result.stderr}`);
	}
}

export type BinResult = {readonly code: number | null; readonly stdout: string; readonly stderr: string};

/** Environment for the bin: the caller's, minus anything that changes colour, plus a fixed time zone. */
export function binEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {...process.env, TZ: 'UTC', ...extra};
	for (const name of ['NO_COLOR', 'FORCE_COLOR', 'PLANWATCH_DEBUG']) {
		if (!(name in extra)) {
			delete env[name];
		}
	}

	return env;
}

/** Run with stdin/stdout/stderr as pipes; resolves when the process exits. */
export async function runBin(args: readonly string[], options: {input?: string; env?: Record<string, string>; command?: readonly string[]; timeoutMs?: number} = {}): Promise<BinResult> {
	const [command, ...prefix] = options.command ?? [process.execPath, binPath];
	const child = spawn(command!, [...prefix, ...args], {cwd: repoRoot, env: binEnv(options.env), stdio: ['pipe', 'pipe', 'pipe']});
	let stdout = '';
	let stderr = '';
	child.stdout.setEncoding('utf8').on('data', (d: string) => {
		stdout += d;
	});
	child.stderr.setEncoding('utf8').on('data', (d: string) => {
		stderr += d;
	});
	child.stdin.end(options.input ?? '');
	// A hang is a failure, not a test that never ends: killed (exit code null) after `timeoutMs`.
	const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
	return new Promise((resolve, reject) => {
		child.on('error', reject);
		child.on('close', code => {
			clearTimeout(timer);
			resolve({code, stdout, stderr});
		});
	});
}

/** Run in a pseudo-terminal (stdin and stdout are a TTY); resolves with everything written and the exit code. */
export async function runBinInTerminal(args: readonly string[], env: Record<string, string> = {}): Promise<{code: number; output: string}> {
	const terminal = pty.spawn(process.execPath, [binPath, ...args], {cols: 120, rows: 40, cwd: repoRoot, env: binEnv(env) as Record<string, string>});
	let output = '';
	terminal.onData(d => {
		output += d;
	});
	return new Promise(resolve => {
		terminal.onExit(({exitCode}) => {
			resolve({code: exitCode, output});
		});
	});
}
