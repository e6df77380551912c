import {describe, expect, test} from 'vitest';
import {adaptInstance} from '../../source/model/adapt-kudo-instance.js';
import {waitVerdict} from '../../source/model/wait-rules.js';
import {kudoInstance} from '../helpers/kudo-instance.js';

/* `--plan NAME`: the wait is for that plan — the run triggered after the wait began, else its latest run. */
const at = '2026-01-01T10:00:01Z';
const options = (plan: string) => ({now: Date.parse('2026-01-01T10:00:05Z'), deferGraceMs: 30_000, staleMs: 600_000, plan});

describe('--plan NAME', () => {
	test('its latest run decides, whichever plan ran last', () => {
		const o = adaptInstance(kudoInstance({deploy: {status: 'COMPLETE', at: '2026-01-01T10:00:09Z'}, backup: {status: 'FATAL_ERROR', at}}));
		expect(o.active).toBe('deploy');
		expect(waitVerdict(o, o, options('backup'))).toEqual({done: true, exitCode: 1, summary: 'backup failed in phase backup, step backup: backup broke'});
		expect(waitVerdict(o, o, options('deploy'))).toEqual({done: true, exitCode: 0, summary: 'deploy completed'});
	});

	test('a same-second tie does not matter when the named plan is one of them', () => {
		const o = adaptInstance(kudoInstance({deploy: {status: 'COMPLETE', at}, fails: {status: 'FATAL_ERROR', at}}));
		expect(waitVerdict(o, o, options('deploy'))).toEqual({done: true, exitCode: 0, summary: 'deploy completed'});
	});

	test('triggered and not yet taken: wait for it, not its previous run', () => {
		const raw = kudoInstance({deploy: {status: 'COMPLETE', at}, backup: {status: 'COMPLETE', at, uid: 'old'}}, {planName: 'backup', uid: 'new'});
		const o = adaptInstance(raw);
		expect(waitVerdict(o, o, options('backup'))).toEqual({done: false, waitingFor: 'waiting for the controller to start backup'});
		// Taken by the controller (same uid) and running.
		const running = adaptInstance(kudoInstance({deploy: {status: 'COMPLETE', at}, backup: {status: 'IN_PROGRESS', at, uid: 'new'}}, {planName: 'backup', uid: 'new'}));
		expect(waitVerdict(running, o, options('backup'))).toMatchObject({done: false});
		const done = adaptInstance(kudoInstance({deploy: {status: 'COMPLETE', at}, backup: {status: 'COMPLETE', at: '2026-01-01T10:00:04Z', uid: 'new'}}));
		expect(waitVerdict(done, o, options('backup'))).toEqual({done: true, exitCode: 0, summary: 'backup completed'});
		// The webhook cleared planExecution, but the wait began while it was queued and the uid has not changed.
		const stale = adaptInstance(kudoInstance({deploy: {status: 'COMPLETE', at}, backup: {status: 'COMPLETE', at, uid: 'old'}}));
		expect(waitVerdict(stale, o, options('backup'))).toMatchObject({done: false});
	});

	test('never run: wait for it to be triggered; a plan the Instance does not have: 1 with its plans', () => {
		const o = adaptInstance(kudoInstance({deploy: {status: 'COMPLETE', at}, backup: {status: 'NEVER_RUN'}}));
		expect(waitVerdict(o, o, options('backup'))).toEqual({done: false, waitingFor: 'waiting for plan backup to be triggered (it has not run yet)'});
		expect(waitVerdict(o, o, options('restore'))).toEqual({done: true, exitCode: 1, summary: 'no plan restore in this Instance (its plans: backup, deploy)'});
	});

	test('running or retrying: keep waiting, saying so', () => {
		const o = adaptInstance(kudoInstance({deploy: {status: 'COMPLETE', at: '2026-01-01T10:00:09Z'}, backup: {status: 'ERROR', at}}));
		expect(waitVerdict(o, o, options('backup'))).toMatchObject({done: false, waitingFor: expect.stringMatching(/backup/)});
	});
});
