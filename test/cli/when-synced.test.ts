import {describe, expect, it} from 'vitest';
import {whenSynced} from '../../source/cli/when-synced.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {Store} from '../../source/state/store.js';

describe('whenSynced', () => {
	it('resolves at once when the source has already listed everything', async () => {
		const store = new Store(new FakeClock());
		store.apply({type: 'synced'});
		expect((await whenSynced(store)).synced).toBe(true);
	});

	it('waits for synced, or for a fatal error', async () => {
		const store = new Store(new FakeClock());
		const pending = whenSynced(store);
		store.apply({type: 'connection', state: {status: 'live'}});
		store.apply({type: 'fatal', message: 'forbidden', exitCode: 4});
		const snapshot = await pending;
		expect(snapshot.fatal).toEqual({message: 'forbidden', exitCode: 4});
		expect(snapshot.synced).toBe(false);
	});
});
