/**
 * useStore's render gate judges each change once: off-screen changes notify one by one, and a change already turned
 * down is not handed to `shows` again with the next (counted, not timed).
 */
import {Text} from 'ink';
import {afterEach, expect, test} from 'vitest';
import type {StoreChange} from '../../source/state/change-log.js';
import {Store} from '../../source/state/store.js';
import {useStore} from '../../source/ui/hooks/use-store.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {loadFixtureObject} from '../helpers/fixtures.js';
import {cleanupUi, renderUi, settle} from '../helpers/ui.js';

afterEach(cleanupUi);

const running = loadFixtureObject('kanister/actionset-mysql-backup-running.yaml');

function named(name: string, label: string) {
	return {...running, metadata: {...running.metadata, name, labels: {n: label}}};
}

test('each change is handed to the gate once; one that shows renders, and the gate starts again from that render', async () => {
	const store = new Store(new FakeClock());
	for (const name of ['a', 'b']) {
		store.apply({type: 'upsert', resource: 'ActionSet', object: named(name, '0')});
	}

	let judged = 0;
	let renders = 0;
	// `b` is on screen, `a` is not.
	const shows = (changes: readonly StoreChange[] | undefined) => {
		judged += changes?.length ?? 0;
		return changes === undefined || changes.some(c => c.key.endsWith('/b'));
	};

	function View() {
		const snapshot = useStore(store, shows);
		renders++;
		return <Text>{snapshot.objects.length}</Text>;
	}

	renderUi(<View />);
	await settle();
	const renders0 = renders;
	for (let i = 1; i <= 20; i++) {
		store.apply({type: 'upsert', resource: 'ActionSet', object: named('a', String(i))});
		await settle();
	}

	expect(judged).toBe(20);
	expect(renders).toBe(renders0);
	store.apply({type: 'upsert', resource: 'ActionSet', object: named('b', '1')});
	await settle();
	expect(judged).toBe(21);
	expect(renders).toBeGreaterThan(renders0);
	store.apply({type: 'upsert', resource: 'ActionSet', object: named('a', '21')});
	await settle();
	expect(judged).toBe(22);
});

test("changes the gate says were drawn elsewhere (a row's own) render nothing here but count as a frame; those turned down do not", async () => {
	const store = new Store(new FakeClock());
	for (const name of ['a', 'b']) {
		store.apply({type: 'upsert', resource: 'ActionSet', object: named(name, '0')});
	}

	// What the frame slot hears from the listener (framed-snapshots.ts: false starts no frame).
	const answers: Array<boolean | void> = [];
	const source = {
		getSnapshot: () => store.getSnapshot(),
		subscribe: (listener: () => boolean | void) => store.subscribe(() => {
			answers.push(listener());
		}),
	};
	let renders = 0;
	function View() {
		useStore(source, changes => (changes?.some(c => c.key.endsWith('/b')) ? 'drawn' : false));
		renders++;
		return <Text>x</Text>;
	}

	renderUi(<View />);
	await settle();
	const renders0 = renders;
	answers.length = 0;
	store.apply({type: 'upsert', resource: 'ActionSet', object: named('a', '1')});
	await settle();
	store.apply({type: 'upsert', resource: 'ActionSet', object: named('b', '1')});
	await settle();
	expect([renders - renders0, answers]).toEqual([0, [false, true]]);
});
