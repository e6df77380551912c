/**
 * Exit codes never lie, whatever happens to the output: the built bin with stdout closed early (`| head -1`),
 * stdout on a full disk, signals to the TUI in a pseudo-terminal, `-o tui` without a terminal, TERM=dumb, and
 * stderr redirected to a file while the TUI draws.
 */
import {spawn} from 'node:child_process';
import {closeSync, mkdtempSync, openSync, readFileSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pty from 'node-pty';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {binEnv, binPath, buildBin, repoRoot, runBin, runBinInTerminal} from '../helpers/run-bin.js';

const kudo = (name: string): string => `test/fixtures/kudo/${name}`;
const deploying = ['-f', kudo('instance-mysql-deploy-in-progress.yaml'), '-f', kudo('operatorversion-mysql.yaml')];
const esc = '\u001B';
const temporary = mkdtempSync(path.join(os.tmpdir(), 'planwatch-bin-exit-'));
const ptys: pty.IPty[] = [];

beforeAll(() => {
	buildBin();
});

afterAll(() => {
	for (const p of ptys) {
		try {
			p.kill('SIGKILL');
		} catch {
			// Already exited.
		}
	}
});

/** Start the bin with stdout a pipe; after the first chunk arrives, close the reading end (as `head -1` does). */
async function runWithReaderLeaving(args: readonly string[]): Promise<{code: number | null; signal: NodeJS.Signals | null; stderr: string}> {
	const child = spawn(process.execPath, [binPath, ...args], {cwd: repoRoot, env: binEnv(), stdio: ['ignore', 'pipe', 'pipe']});
	let stderr = '';
	child.stderr.setEncoding('utf8').on('data', (d: string) => {
		stderr += d;
	});
	child.stdout.once('data', () => {
		child.stdout.destroy();
	});
	return new Promise((resolve, reject) => {
		child.on('error', reject);
		child.on('close', (code, signal) => {
			resolve({code, signal, stderr});
		});
	});
}

/** Many copies of a FATAL_ERROR Instance: far more output than a pipe holds, so writing blocks until read. */
function bigFailedFile(): string {
	const file = path.join(temporary, 'many-fatal.yaml');
	const text = readFileSync(`${repoRoot}${kudo('instance-mysql-restore-fatal-error.yaml')}`, 'utf8');
	const copies = Array.from({length: 400}, (_, i) => text.replace(/^ {2}name: mysql-instance$/m, `  name: mysql-${i}`));
	writeFileSync(file, copies.join('\n---\n'));
	return file;
}

describe('the reader of stdout goes away (EPIPE)', () => {
	it('exits 141, not 0, when the run had no outcome yet', async () => {
		// The demo writes a line per transition until its wait ends, long after the reader left.
		const r = await runWithReaderLeaving(['demo', '--scenario', 'mysql-deploy', '--speed', '20', '--wait', '-o', 'plain']);
		expect(r.signal).toBeNull();
		expect(r.code).toBe(141);
		expect(r.stderr).toBe('');
	});

	it('keeps the code the run had reached (1: something failed)', async () => {
		const r = await runWithReaderLeaving(['-f', bigFailedFile(), '-f', kudo('operatorversion-mysql.yaml'), '-o', 'plain']);
		expect(r.code).toBe(1);
		expect(r.stderr).toBe('');
	});
});

describe('a full disk', () => {
	it('is one line on stderr and exit 2, in every output', async () => {
		for (const output of ['plain', 'json']) {
			const devFull = openSync('/dev/full', 'w');
			const child = spawn(process.execPath, [binPath, ...deploying, '-o', output], {cwd: repoRoot, env: binEnv(), stdio: ['ignore', devFull, 'pipe']});
			closeSync(devFull);
			let stderr = '';
			child.stderr!.setEncoding('utf8').on('data', (d: string) => {
				stderr += d;
			});
			const code = await new Promise(resolve => {
				child.on('close', resolve);
			});
			expect(code).toBe(2);
			expect(stderr).toBe('planwatch: cannot write the output: no space left on device\n');
		}
	});
});

/** The bin in a pseudo-terminal through `sh -c`, so a test can redirect stderr; resolves on the first output. */
function startInTerminal(script: string, env: Record<string, string> = {}): {terminal: pty.IPty; output: () => string; exit: Promise<{exitCode: number; signal?: number}>; shown: Promise<void>} {
	const terminal = pty.spawn('/bin/sh', ['-c', script], {cols: 100, rows: 30, cwd: repoRoot, env: binEnv({TERM: 'xterm-256color', ...env}) as Record<string, string>});
	ptys.push(terminal);
	let output = '';
	let shownResolve!: () => void;
	const shown = new Promise<void>(resolve => {
		shownResolve = resolve;
	});
	terminal.onData(d => {
		output += d;
		if (output.includes('mysql-instance')) {
			shownResolve();
		}
	});
	const exit = new Promise<{exitCode: number; signal?: number}>(resolve => {
		terminal.onExit(resolve);
	});
	return {terminal, output: () => output, exit, shown};
}

const tui = `exec "${process.execPath}" "${binPath}" ${deploying.join(' ')}`;

describe('signals to the TUI', () => {
	for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) {
		it(`${signal}: restores the terminal and exits 130, not killed by the signal`, async () => {
			const run = startInTerminal(tui);
			await run.shown;
			run.terminal.kill(signal);
			const {exitCode, signal: killedBy} = await run.exit;
			expect(killedBy ?? 0).toBe(0);
			expect(exitCode).toBe(130);
			// The cursor Ink hid is shown again.
			expect(run.output().lastIndexOf(`${esc}[?25h`)).toBeGreaterThan(run.output().lastIndexOf(`${esc}[?25l`));
		});
	}
});

describe('a terminal under CI', () => {
	// Ink alone turns a TTY non-interactive when CI is set (only the last frame, no keys); a terminal is a terminal.
	for (const ci of ['true', '1']) {
		it(`CI=${ci}: the TUI draws while running and quits on q`, async () => {
			const run = startInTerminal(tui, {CI: ci});
			await run.shown;
			run.terminal.write('q');
			const {exitCode} = await run.exit;
			expect(exitCode).toBe(0);
		});
	}
});

describe('terminal control only to a terminal', () => {
	it('writes nothing to stderr redirected to a file while the TUI runs and quits', async () => {
		const errFile = path.join(temporary, 'stderr.txt');
		const run = startInTerminal(`${tui} 2>"${errFile}"`);
		await run.shown;
		run.terminal.write('q');
		const {exitCode} = await run.exit;
		expect(exitCode).toBe(0);
		expect(readFileSync(errFile, 'utf8')).toBe('');
	});

	it('TERM=dumb gets plain output, without cursor movement or colour', async () => {
		const r = await runBinInTerminal(deploying, {TERM: 'dumb'});
		expect(r.code).toBe(0);
		expect(r.output).toContain('Instance default/mysql-instance');
		expect(r.output).not.toContain(esc);
	});

	it('refuses -o tui when stdout is not a terminal (one line, exit 2); one frame with --once still works', async () => {
		const r = await runBin([...deploying, '-o', 'tui']);
		expect(r.code).toBe(2);
		expect(r.stderr).toBe('planwatch: -o tui needs a terminal on stdout: use -o plain or -o json, or add --once for a single frame (see planwatch --help)\n');
		expect(r.stdout).toBe('');
		expect((await runBin([...deploying, '-o', 'tui', '--once'])).code).toBe(0);
	});
});
