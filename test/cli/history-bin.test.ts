/** The bin files finished runs into $XDG_STATE_HOME/planwatch/history.ndjson, and --no-history leaves it alone. */
import {spawnSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest';
import {parseRunRecord} from '../../source/model/run-history.js';
import {buildBin, runBin} from '../helpers/run-bin.js';
import {waitUntil} from '../helpers/wait-until.js';

beforeAll(() => {
	buildBin();
});

let state: string;
beforeEach(() => {
	state = fs.mkdtempSync(path.join(os.tmpdir(), 'planwatch-state-'));
});
afterEach(() => {
	fs.rmSync(state, {recursive: true, force: true});
});

const demo = ['demo', '--scenario', 'mysql-deploy', '--speed', '40', '--wait', '-o', 'json'];

describe('history from the bin', () => {
	it('a watched run is filed: names and durations only', async () => {
		const r = await runBin(demo, {env: {XDG_STATE_HOME: state}});
		expect(r.code).toBe(0);
		const text = fs.readFileSync(path.join(state, 'planwatch', 'history.ndjson'), 'utf8');
		const records = text.trim().split('\n').map(l => parseRunRecord(l));
		expect(records.length).toBeGreaterThan(0);
		expect(records.every(x => x !== undefined)).toBe(true);
		// The demo's runs are filed apart from a real mysql-5.7-0.3.0's.
		expect(records[0]).toMatchObject({kind: 'Instance', group: 'demo/mysql-5.7-0.3.0', top: 'deploy', outcome: 'succeeded'});
		expect(text).not.toContain('mysql-instance');
		// Another play of the same scenario is another run (same uids, another creation time). Creation times have
		// whole seconds, as the API's: a play within the same second would be the same run, so the next starts in
		// the next second.
		const second = Math.floor(Date.now() / 1000);
		await waitUntil(() => Math.floor(Date.now() / 1000) > second, 'the next second');
		const again = await runBin(demo, {env: {XDG_STATE_HOME: state}});
		expect(again.code).toBe(0);
		expect(fs.readFileSync(path.join(state, 'planwatch', 'history.ndjson'), 'utf8').trim().split('\n').length).toBe(records.length * 2);
	});

	it('--no-history neither writes nor creates the history', async () => {
		const r = await runBin([...demo, '--no-history'], {env: {XDG_STATE_HOME: state}});
		expect(r.code).toBe(0);
		expect(fs.readdirSync(state)).toEqual([]);
	});

	it('a replay files nothing that was filed live, however often it plays (same realm, same run ids)', async () => {
		const recording = path.join(state, 'tour.ndjson');
		const lines = () => fs.readFileSync(path.join(state, 'planwatch', 'history.ndjson'), 'utf8').trim().split('\n');
		const live = await runBin(['demo', '--scenario', 'tour', '--speed', '20', '--wait', '-o', 'json', '--record', recording], {env: {XDG_STATE_HOME: state}});
		expect(live.code).toBe(1);
		const filed = lines();
		// KUDO and Kanister runs both (their run ids come from different facts).
		expect(new Set(filed.map(l => parseRunRecord(l)?.kind))).toEqual(new Set(['Instance', 'ActionSet']));
		for (let i = 0; i < 2; i++) {

			const replayed = await runBin(['replay', recording, '--speed', '50', '--wait', '-o', 'json'], {env: {XDG_STATE_HOME: state}});
			expect(replayed.code).toBe(1);
			expect(lines()).toEqual(filed);
		}
	});

	it('a history file that is a FIFO or a symbolic link: the run goes on without history and says so once', async () => {
		fs.mkdirSync(path.join(state, 'planwatch'));
		const file = path.join(state, 'planwatch', 'history.ndjson');
		expect(spawnSync('mkfifo', [file]).status).toBe(0);
		// Opening a FIFO to read blocks until a writer comes: the run must not wait for one (killed after 60 s).
		const fifo = await runBin(demo, {env: {XDG_STATE_HOME: state}, timeoutMs: 240_000});
		expect(fifo.code).toBe(0);
		expect(fifo.stderr).toBe(`planwatch: history file ${file}: is not a regular file: running without history\n`);

		fs.rmSync(file);
		const target = path.join(state, 'target.ndjson');
		fs.writeFileSync(target, '');
		fs.symlinkSync(target, file);
		const link = await runBin(demo, {env: {XDG_STATE_HOME: state}});
		expect(link.code).toBe(0);
		expect(link.stderr).toBe(`planwatch: history file ${file}: is a symbolic link, not followed: running without history\n`);
		expect(fs.readFileSync(target, 'utf8')).toBe('');
	});
});
