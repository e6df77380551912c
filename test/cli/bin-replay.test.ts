/**
 * --record and planwatch replay through the built bin: what a user runs, exit codes, one-line errors, and a
 * recording that stays readable when the process is interrupted or killed.
 */
import {spawn} from 'node:child_process';
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {beforeAll, describe, expect, it} from 'vitest';
import {parseRecording} from '../../source/recording/recording.js';
import {binEnv, binPath, buildBin, repoRoot, runBin, runBinInTerminal} from '../helpers/run-bin.js';

const dir = mkdtempSync(path.join(tmpdir(), 'planwatch-replay-'));

beforeAll(() => {
	buildBin();
});

type JsonLine = {type: string; objects?: unknown[]; exitCode?: number};

function lines(stdout: string): JsonLine[] {
	return stdout.trim().split('\n').map(l => JSON.parse(l) as JsonLine);
}

/** Start the bin and send `signal` once `ready(stdout)` holds. */
async function runUntil(args: readonly string[], ready: (stdout: string) => boolean, signal: NodeJS.Signals): Promise<{code: number | null; signal: NodeJS.Signals | null}> {
	const child = spawn(process.execPath, [binPath, ...args], {cwd: repoRoot, env: binEnv(), stdio: ['pipe', 'pipe', 'pipe']});
	let stdout = '';
	let sent = false;
	child.stdout.setEncoding('utf8').on('data', (d: string) => {
		stdout += d;
		if (!sent && ready(stdout)) {
			// Once: a second SIGINT gets Node's default handling (see source/cli/interrupt.ts).
			sent = true;
			child.kill(signal);
		}
	});
	return new Promise(resolve => {
		child.on('close', (code, sig) => {
			resolve({code, signal: sig});
		});
	});
}

describe('record and replay (bin)', () => {
	it('replays a recorded demo wait to the same final JSON and exit code', async () => {
		const file = path.join(dir, 'restore.ndjson');
		const live = await runBin(['demo', '--scenario', 'postgres-restore-failed', '--wait', '--speed', '20', '-o', 'json', '--record', file]);
		expect(live.stderr).toBe('');
		expect(live.code).toBe(1);
		const recording = parseRecording(readFileSync(file, 'utf8'), file);
		expect(recording.header).toMatchObject({source: 'demo', context: 'demo', namespace: 'default', waitFor: ['ActionSet/default/restore-backup-glptq-6jzt4']});
		expect(recording.entries.at(-1)!.event).toEqual({type: 'end'});

		const replayed = await runBin(['replay', file, '--wait', '--speed', '50', '-o', 'json']);
		expect(replayed.stderr).toBe('');
		expect(replayed.code).toBe(1);
		const [a, b] = [lines(live.stdout), lines(replayed.stdout)];
		expect(b.at(-1)).toMatchObject({type: 'result', exitCode: 1});
		// The final snapshot: every object, node, status and summary as live.
		expect(b.at(-2)!.objects).toEqual(a.at(-2)!.objects);
		// Every transition, at the time it was received live.
		expect(b.filter(l => l.type === 'transition')).toEqual(a.filter(l => l.type === 'transition'));

		// The TUI in a terminal: REPLAY in the header, the wait's exit code.
		const tui = await runBinInTerminal(['replay', file, '--wait', '--speed', '50']);
		expect(tui.code).toBe(1);
		expect(tui.output).toContain('REPLAY ');
		expect(tui.output).toContain('RestoreFromObjectStore');

		// -f draws the recording's last state.
		const drawn = await runBin(['-f', file, '-o', 'plain']);
		expect(drawn.code).toBe(1);
		expect(drawn.stdout).toContain('✖ restore failed in phase RestoreFromObjectStore');

		// --from a time of day, in the view's zone (--utc here, in a machine zone 9 hours away): starts there. The next
		// whole second after the recorded session's first complete list: a replay never starts before that list (a
		// second after the start could fall a few ms before it, and the replay then began at the list's time).
		const syncedAt = recording.entries.find(e => e.event.type === 'synced')!.at;
		const from = syncedAt + 1000 - ((syncedAt + 1000) % 1000);
		const hms = new Date(from).toISOString().slice(11, 19);
		const fromRun = await runBin(['replay', file, '--from', hms, '--utc', '--speed', '50', '-o', 'json'], {env: {TZ: 'Asia/Tokyo'}});
		expect((JSON.parse(fromRun.stdout.split('\n')[0]!) as {time: string}).time).toBe(new Date(from).toISOString());

		// Without --wait a replay ends with the recording, exit code as -f.
		const plain = await runBin(['replay', file, '--speed', '50', '-o', 'plain', '--from', '0s']);
		expect(plain.code).toBe(1);
		expect(plain.stdout).toMatch(/restore › RestoreFromObjectStore {2}running → failed/);
	});

	it('a recorded timeout replays as a timeout; a wait the recording does not finish is 130', async () => {
		const file = path.join(dir, 'timeout.ndjson');
		const live = await runBin(['demo', '--scenario', 'mysql-deploy', '--wait', '--timeout', '2s', '-o', 'json', '--record', file]);
		expect(live.code).toBe(3);
		const replayed = await runBin(['replay', file, '--wait', '--timeout', '2s', '--speed', '4', '-o', 'json']);
		expect(replayed.code).toBe(3);
		expect(lines(replayed.stdout).at(-2)!.objects).toEqual(lines(live.stdout).at(-2)!.objects);
		const open = await runBin(['replay', file, '--wait', '--speed', '4', '-o', 'plain']);
		expect(open.code).toBe(130);
		// Not silent: nobody pressed Ctrl+C.
		expect(open.stderr).toMatch(/^planwatch: the recording ends at \S+Z before the wait finished: the recorded session stopped before its targets finished \(it timed out or was interrupted\)\n$/);
	});

	it('a bad line is one error with its line number, exit 2', async () => {
		const file = path.join(dir, 'bad.ndjson');
		writeFileSync(
			file,
			'{"recording":"planwatch/1","source":"demo","start":"2026-11-30T11:00:00Z"}\n{"at":"2026-11-30T11:00:01Z","type":"synced"}\n{"at": nope}\n{"at":"2026-11-30T11:00:02Z","type":"synced"}\n',
		);
		for (const args of [['replay', file], ['-f', file]]) {
			const r = await runBin(args);
			expect(r.code).toBe(2);
			expect(r.stderr).toMatch(new RegExp(`^planwatch: ${file.replaceAll('/', '\\/')}: line 3: invalid JSON \\([^\\n]+\\)\\n$`));
		}

		const from = await runBin(['replay', path.join(dir, 'restore.ndjson'), '--from', 'lunch']);
		expect(from.code).toBe(2);
		expect(from.stderr).toMatch(/^planwatch: invalid --from "lunch": use a duration after the start \(2m30s\) or a time/);
		const exists = await runBin(['demo', '-o', 'plain', '--record', file]);
		expect(exists.code).toBe(2);
		expect(exists.stderr).toBe(`planwatch: --record ${file}: the file exists; choose a new file or remove it\n`);
	});

	it('Ctrl+C ends the recording with whole lines and an end line; a kill leaves whole lines', async () => {
		const interrupted = path.join(dir, 'int.ndjson');
		const r = await runUntil(['demo', '-o', 'plain', '--record', interrupted], out => out.includes('→'), 'SIGINT');
		expect(r.code).toBe(130);
		const a = parseRecording(readFileSync(interrupted, 'utf8'), 'int');
		expect(a.truncated).toBe(false);
		expect(a.entries.at(-1)!.event).toEqual({type: 'end'});
		expect(a.entries.some(e => e.event.type === 'upsert')).toBe(true);

		const killed = path.join(dir, 'kill.ndjson');
		const k = await runUntil(['demo', '-o', 'plain', '--speed', '5', '--record', killed], out => (out.match(/→/g) ?? []).length > 3, 'SIGKILL');
		expect(k.signal).toBe('SIGKILL');
		const b = parseRecording(readFileSync(killed, 'utf8'), 'kill');
		expect(b.entries.length).toBeGreaterThan(3);
		// Replayable as it is.
		const replayed = await runBin(['replay', killed, '--speed', '100', '-o', 'plain']);
		expect([0, 1]).toContain(replayed.code);
	});
});
