/**
 * The bin in a pseudo-terminal: the raw bytes it writes carry the notification (OSC 9, OSC 777, BEL) when a wait
 * ends, wrapped for tmux when $TMUX is set, and the clipboard (OSC 52) on `y`; plain output and pipes carry none.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pty from 'node-pty';
import {beforeAll, describe, expect, it} from 'vitest';
import {autoNotifyAfterMs, shouldNotify, waitEndText} from '../../source/cli/notifier.js';
import {binEnv, binPath, buildBin, runBin, runBinInTerminal} from '../helpers/run-bin.js';

beforeAll(() => {
	buildBin();
});

const demo = ['demo', '--scenario', 'mysql-deploy', '--speed', '40', '--wait', '--no-history'];
const osc9 = /\u001B\]9;planwatch: succeeded[^\u0007\u001B]*\u0007/;
const osc777 = /\u001B\]777;notify;planwatch;succeeded[^\u0007\u001B]*\u0007\u0007/;

describe('notifications (pure rules)', () => {
	it.each([
		['always', true, 0, true],
		['auto', true, autoNotifyAfterMs, false],
		['auto', true, autoNotifyAfterMs + 1, true],
		['never', true, 99_999_999, false],
		['always', false, 99_999_999, false],
	] as const)('%s, enabled %s, after %d ms → %s', (mode, enabled, elapsed, expected) => {
		expect(shouldNotify(mode, enabled, elapsed)).toBe(expected);
	});

	it('says how a wait ended; quitting and interrupts are not news', () => {
		expect(waitEndText({exitCode: 0, message: 'instance default/x: deploy completed\nother'})).toBe('succeeded: instance default/x: deploy completed');
		expect(waitEndText({exitCode: 1, message: ''})).toBe('failed');
		expect(waitEndText({exitCode: 3, message: 'timed out after 5m\n…'})).toBe('timed out after 5m');
		expect(waitEndText({exitCode: 130, message: 'interrupted while waiting'})).toBeUndefined();
	});
});

describe('notifications from the bin', () => {
	it('--notify=always: a finished wait sends OSC 9, OSC 777 and the bell', async () => {
		const r = await runBinInTerminal([...demo, '--notify=always']);
		expect(r.code).toBe(0);
		expect(r.output).toMatch(osc9);
		expect(r.output).toMatch(osc777);
	});

	it('inside tmux both go through the DCS passthrough; the bell does not', async () => {
		const r = await runBinInTerminal([...demo, '--notify=always'], {TMUX: '/tmp/tmux-1/default,1,0'});
		expect(r.output).toMatch(/\u001BPtmux;\u001B\u001B\]9;planwatch: succeeded[^\u0007]*\u0007\u001B\\/);
		expect(r.output).toMatch(/\u001BPtmux;\u001B\u001B\]777;notify;planwatch;succeeded[^\u0007]*\u0007\u001B\\\u0007/);
	});

	it('auto (the default): a wait shorter than 30 s sends nothing; never sends nothing', async () => {
		for (const args of [demo, [...demo, '--notify=never']]) {
			const r = await runBinInTerminal(args);
			expect(r.code).toBe(0);
			expect(r.output).not.toMatch(/\u001B\](9|777);/);
			expect(r.output).not.toContain('\u0007');
		}
	});

	it('plain output in a terminal and output to a pipe: no sequence at all', async () => {
		const inTerminal = await runBinInTerminal([...demo, '--notify=always', '-o', 'plain']);
		expect(inTerminal.output).not.toMatch(/\u001B\](9|777|52);/);
		const piped = await runBin([...demo, '--notify=always', '-o', 'json']);
		expect(piped.stdout).not.toMatch(/\u001B/);
		expect(piped.code).toBe(0);
	});

	it('a bad --notify value is one usage line, exit 2', async () => {
		const r = await runBin(['demo', '--notify=loud']);
		expect(r.code).toBe(2);
		expect(r.stderr).toBe('planwatch: unknown --notify "loud": use auto, always or never (see planwatch --help)\n');
	});

	it('y in the TUI writes OSC 52 with the plain tree; s saves files into the working directory', async () => {
		const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'planwatch-share-'));
		const terminal = pty.spawn(process.execPath, [binPath, 'demo', '--scenario', 'mysql-deploy', '--speed', '0.2', '--no-history'], {
			cols: 120,
			rows: 40,
			cwd,
			env: binEnv() as Record<string, string>,
		});
		let output = '';
		terminal.onData(d => {
			output += d;
		});
		const exited = new Promise<number>(resolve => {
			terminal.onExit(({exitCode}) => {
				resolve(exitCode);
			});
		});
		const waitFor = async (what: RegExp): Promise<RegExpMatchArray> => {
			const deadline = Date.now() + 20_000;
			for (;;) {
				const m = output.match(what);
				if (m) {
					return m;
				}

				if (Date.now() > deadline) {
					throw new Error(`no ${String(what)} in:\n${output.slice(-2000)}`);
				}

				await new Promise(resolve => {
					setTimeout(resolve, 50);
				});
			}
		};

		try {
			await waitFor(/mysql-instance/);
			terminal.write('y');
			const [, base64] = await waitFor(/\u001B\]52;c;([A-Za-z\d+/=]+)\u0007/);
			expect(Buffer.from(base64!, 'base64').toString('utf8')).toMatch(/^```\nInstance default\/mysql-instance/);
			await waitFor(/sent the tree/);
			terminal.write('s');
			// Ink redraws only what changed: the footer's "s" of "sent …" stays, so "saved" is not written whole.
			await waitFor(/\.\/planwatch-default-mysql-instance-/);
			const files = fs.readdirSync(cwd).sort();
			expect(files).toHaveLength(2);
			expect(files[0]).toMatch(/^planwatch-default-mysql-instance-\d{8}T\d{6}Z\.json$/);
			terminal.write('q');
			expect(await exited).toBe(0);
		} finally {
			terminal.kill();
			fs.rmSync(cwd, {recursive: true, force: true});
		}

	});
});
