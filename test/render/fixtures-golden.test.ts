/**
 * Golden plain output for the fixtures, through the same path as `planwatch -f … -o plain`: file parsing,
 * FileSource, Store (adapters, timings), renderPlain. Each golden file was reviewed against the sketch and,
 * for KUDO, against the `kubectl kudo plan status` text of the same instance (test/fixtures/kudo/plan-status-*).
 */
import {readFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {describe, expect, it} from 'vitest';
import {renderJson} from '../../source/render/json.js';
import {renderPlain} from '../../source/render/plain.js';
import {FileSource, parseObjects} from '../../source/sources/file-source.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {Store, type StoreSnapshot} from '../../source/state/store.js';
import {fixturesDir} from '../helpers/fixtures.js';
import {expectGolden} from '../helpers/golden.js';

/** What `planwatch -f a -f b` would load, at a fixed clock time. */
function load(files: readonly string[]): {snapshot: StoreSnapshot; now: number} {
	const objects = files.flatMap(f => parseObjects(readFileSync(fixturesDir + f, 'utf8'), f));
	const clock = new FakeClock(Date.parse('2025-06-02T10:30:00Z'));
	const store = new Store(clock);
	new FileSource(objects).start(store.apply);
	return {snapshot: store.getSnapshot(), now: clock.now()};
}

const scenarios: ReadonlyArray<readonly [string, readonly string[]]> = [
	['kudo-mysql-deploy-in-progress', ['kudo/instance-mysql-deploy-in-progress.yaml', 'kudo/operatorversion-mysql.yaml']],
	['kudo-mysql-backup-complete', ['kudo/instance-mysql-backup-complete.yaml', 'kudo/operatorversion-mysql.yaml']],
	['kudo-mysql-backup-scheduled-not-picked-up', ['kudo/instance-mysql-backup-scheduled-not-picked-up.yaml', 'kudo/operatorversion-mysql.yaml']],
	['kudo-mysql-restore-fatal-error', ['kudo/instance-mysql-restore-fatal-error.yaml', 'kudo/operatorversion-mysql.yaml', 'kudo/events-mysql-restore-fatal-error.yaml']],
	['kudo-kafka-deploy-transient-error', ['kudo/instance-kafka-deploy-transient-error.yaml', 'kudo/operatorversion-kafka.yaml']],
	['kudo-zookeeper-deploy-complete', ['kudo/instance-zookeeper-deploy-complete.yaml', 'kudo/operatorversion-zookeeper.yaml']],
	['kudo-mysql-without-operatorversion', ['kudo/instance-mysql-deploy-in-progress.yaml']],
	['kanister-mysql-backup-created', ['kanister/actionset-mysql-backup-created.yaml', 'kanister/blueprint-mysql-defer.yaml']],
	['kanister-mysql-backup-running', ['kanister/actionset-mysql-backup-running.yaml', 'kanister/blueprint-mysql-defer.yaml']],
	['kanister-mysql-backup-defer-running', ['kanister/actionset-mysql-backup-defer-running.yaml', 'kanister/blueprint-mysql-defer.yaml']],
	['kanister-mysql-backup-complete', ['kanister/actionset-mysql-backup-complete.yaml', 'kanister/blueprint-mysql-defer.yaml', 'kanister/events-mysql-backup-complete.yaml']],
	['kanister-postgres-backup-defer-failed', ['kanister/actionset-postgres-backup-defer-failed.yaml', 'kanister/blueprint-postgres-start-stop-defer.yaml']],
	[
		'kanister-postgres-backup-failed-defer-failed',
		['kanister/actionset-postgres-backup-failed-defer-failed.yaml', 'kanister/blueprint-postgres-start-stop-defer.yaml', 'kanister/events-postgres-backup-failed-defer-failed.yaml'],
	],
	[
		'kanister-postgres-restore-failed-defer-running',
		['kanister/actionset-postgres-restore-failed-defer-running.yaml', 'kanister/blueprint-postgres-start-stop-defer.yaml', 'kanister/events-postgres-restore-failed-defer.yaml'],
	],
	[
		'kanister-postgres-restore-failed-defer-complete',
		['kanister/actionset-postgres-restore-failed-defer-complete.yaml', 'kanister/blueprint-postgres-start-stop-defer.yaml', 'kanister/events-postgres-restore-failed-defer.yaml'],
	],
	['kanister-init-failed-blueprint-missing', ['kanister/actionset-init-failed-blueprint-missing.yaml']],
	['kanister-multiple-actions', ['kanister/actionset-multiple-actions.yaml', 'kanister/blueprint-mysql.yaml']],
];

const golden = (name: string): string => fileURLToPath(new URL(`golden/${name}.txt`, import.meta.url));

describe('plain output of the fixtures', () => {
	it.each(scenarios)('%s', (name, files) => {
		const {snapshot, now} = load(files);
		expectGolden(golden(name), renderPlain(snapshot, {now, ascii: false, color: false, timeZone: 'UTC'}));
	});
});

describe('hostile fixtures', () => {
	const hostile = [['kudo/instance-hostile-escapes.yaml'], ['kanister/actionset-hostile-escapes.yaml']] as const;

	it.each(hostile)('%s never reaches the terminal raw, in plain or json', file => {
		const {snapshot, now} = load([file]);
		for (const text of [
			renderPlain(snapshot, {now, ascii: false, color: false}),
			renderPlain(snapshot, {now, ascii: true, color: true}).replaceAll(/\u001B\[\d+m/g, ''),
			renderJson(snapshot),
		]) {
			// No ESC/C0 (but newline)/DEL/C1, bidi controls or zero-width characters.
			expect(text).not.toMatch(/[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/);
		}
	});
});
