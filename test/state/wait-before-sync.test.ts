import {describe, expect, it} from 'vitest';
import {FakeClock} from '../helpers/fake-clock.js';
import {Store} from '../../source/state/store.js';
import {connectionTrouble, stillTrying} from '../../source/state/still-trying.js';
import {createWaitController} from '../../source/state/wait-controller.js';

const second = 1000;

async function flush(): Promise<void> {
	await new Promise(resolve => {
		setImmediate(resolve);
	});
}

/** A store whose source never manages to list: it only reports connection states. */
function unsynced(graceMs: number) {
	const clock = new FakeClock();
	const store = new Store(clock);
	const wait = createWaitController({store, clock, wait: true, targets: ['Instance/default/mysql'], timeoutMs: 10 * second, extendMs: 60 * second, graceMs});
	return {clock, store, wait};
}

describe('wait controller before the first complete list', () => {
	it('times out with 3 at the deadline and says what it was still trying', async () => {
		const {clock, store, wait} = unsynced(0);
		await flush();
		store.apply({type: 'connection', state: {status: 'reconnecting', attempt: 6, lastError: 'the cluster answered 503 Service Unavailable'}});
		await flush();
		expect(wait.getSnapshot().phase).toBe('waiting');
		expect(wait.getSnapshot().waitingFor).toBe('still connecting — the cluster answered 503 Service Unavailable (attempt 6)');
		clock.advance(10 * second);
		const result = await wait.done;
		expect(result).toEqual({exitCode: 3, message: 'timed out after 10s: still connecting — the cluster answered 503 Service Unavailable (attempt 6)'});
	});

	it('times out while an exec plugin is still running', async () => {
		const {clock, store, wait} = unsynced(0);
		store.apply({type: 'connection', state: {status: 'waiting-credentials', plugin: 'kubelogin'}});
		clock.advance(10 * second);
		expect(await wait.done).toEqual({exitCode: 3, message: 'timed out after 10s: still waiting for credentials from kubelogin'});
	});

	it('offers the grace prompt in the TUI; + extends, and a later list lets the wait go on', async () => {
		const {clock, store, wait} = unsynced(10 * second);
		await flush();
		clock.advance(10 * second);
		expect(wait.getSnapshot().phase).toBe('grace');
		wait.extend();
		expect(wait.getSnapshot().phase).toBe('waiting');
		expect(wait.getSnapshot().deadlineAt).toBe(clock.now() + 60 * second);
		clock.advance(60 * second);
		expect(wait.getSnapshot().phase).toBe('grace');
		clock.advance(10 * second);
		expect((await wait.done).exitCode).toBe(3);
	});

	it('after the first list, a timeout during a reconnect says so', async () => {
		const {clock, store, wait} = unsynced(0);
		store.apply({type: 'synced'});
		store.apply({type: 'connection', state: {status: 'reconnecting', attempt: 2, lastError: 'connection refused'}});
		clock.advance(10 * second);
		const result = await wait.done;
		expect(result.exitCode).toBe(3);
		expect(result.message).toBe('timed out after 10s: the connection was lost — connection refused (reconnecting, attempt 2)');
	});
});

describe('stillTrying / connectionTrouble', () => {
	it.each([
		[{status: 'connecting'} as const, 'still connecting to the cluster'],
		[{status: 'waiting-credentials', plugin: 'aws'} as const, 'still waiting for credentials from aws'],
		[{status: 'reconnecting', attempt: 3, lastError: 'x'} as const, 'still connecting — x (attempt 3)'],
	])('%o → %s', (state, text) => {
		expect(stillTrying(state)).toBe(text);
	});

	it('says nothing about a live connection', () => {
		expect(connectionTrouble({status: 'live'})).toBeUndefined();
	});
});
