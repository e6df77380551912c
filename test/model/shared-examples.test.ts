/**
 * Conformance against the project's shared examples (../shared/examples from the repo root): every Instance and
 * ActionSet adapts cleanly to the outcome and wait verdict its file name says, and our fixture copies have not
 * drifted. Without that directory the same table runs on the copies in test/fixtures.
 */
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {describe, expect, test} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {adaptActionSet} from '../../source/model/adapt-kanister-action-set.js';
import {adaptEvent} from '../../source/model/adapt-event.js';
import {adaptInstance} from '../../source/model/adapt-kudo-instance.js';
import {waitVerdict} from '../../source/model/wait-rules.js';
import {fixturesDir, loadObjectsFromFile} from '../helpers/fixtures.js';
import {uncleanStrings} from '../helpers/clean-strings.js';

const examplesDir = fileURLToPath(new URL('../../../shared/examples/', import.meta.url));
const present = existsSync(examplesDir);

/** Where the copy of an example lives under test/fixtures. */
const copyOf = (file: string): string =>
	file.startsWith('kudo-') ? `kudo/${file.slice(5)}` : file.startsWith('kanister-') ? `kanister/${file.slice(9)}` : file.startsWith('blueprint-') ? `kanister/${file}` : `kudo/${file}`;

type Expected = {readonly outcome: string; readonly done: false} | {readonly outcome: string; readonly done: true; readonly exitCode: 0 | 1};

/** What each example with an Instance or ActionSet must adapt to, and the --wait verdict just after its last update. */
const expected: Readonly<Record<string, Expected>> = {
	'kanister-actionset-init-failed-blueprint-missing.yaml': {outcome: 'failed', done: true, exitCode: 1},
	'kanister-actionset-mysql-backup-complete.yaml': {outcome: 'succeeded', done: true, exitCode: 0},
	'kanister-actionset-mysql-backup-created.yaml': {outcome: 'running', done: false},
	'kanister-actionset-mysql-backup-defer-running.yaml': {outcome: 'running', done: false},
	'kanister-actionset-mysql-backup-pending.yaml': {outcome: 'running', done: false},
	'kanister-actionset-mysql-backup-running.yaml': {outcome: 'running', done: false},
	'kanister-actionset-postgres-backup-defer-failed.yaml': {outcome: 'failed', done: true, exitCode: 1},
	'kanister-actionset-postgres-restore-failed-defer-complete.yaml': {outcome: 'failed', done: true, exitCode: 1},
	'kanister-actionset-postgres-restore-failed-defer-running.yaml': {outcome: 'running', done: false},
	'kudo-instance-kafka-deploy-transient-error.yaml': {outcome: 'running', done: false},
	'kudo-instance-mysql-backup-complete.yaml': {outcome: 'succeeded', done: true, exitCode: 0},
	'kudo-instance-mysql-backup-scheduled-not-picked-up.yaml': {outcome: 'running', done: false},
	'kudo-instance-mysql-deploy-in-progress.yaml': {outcome: 'running', done: false},
	'kudo-instance-mysql-restore-fatal-error.yaml': {outcome: 'failed', done: true, exitCode: 1},
	'kudo-instance-zookeeper-deploy-complete.yaml': {outcome: 'succeeded', done: true, exitCode: 0},
};

/** The examples the targets are drawn with: OperatorVersions, Blueprints, Events. */
const supporting = [
	'blueprint-mysql-defer.yaml',
	'blueprint-mysql.yaml',
	'blueprint-postgres-start-stop-defer.yaml',
	'blueprint-time-log-defer.yaml',
	'kanister-events-mysql-backup-complete.yaml',
	'kanister-events-postgres-restore-failed-defer.yaml',
	'kudo-events-mysql-restore-fatal-error.yaml',
	'operatorversion-mysql.yaml',
	'operatorversion-zookeeper.yaml',
];

const files = [...Object.keys(expected), ...supporting].sort();
const loaded = files.map(file => ({file, objects: loadObjectsFromFile(present ? examplesDir + file : fixturesDir + copyOf(file))}));
const all = loaded.flatMap(l => l.objects);
const ofKind = (kind: string): KubeObject[] => all.filter(o => o.kind === kind);
const operatorVersions = new Map(ofKind('OperatorVersion').map(o => [o.metadata?.name ?? '', o]));
const blueprints = new Map(ofKind('Blueprint').map(o => [o.metadata?.name ?? '', o]));
const events = ofKind('Event').flatMap(e => adaptEvent(e) ?? []);

describe(`shared examples adapt to what their names say (${present ? 'examples' : 'fixture copies'})`, () => {
	test.each(Object.entries(expected))('%s', (file, want) => {
		const targets = loaded.find(l => l.file === file)!.objects.filter(o => o.kind === 'Instance' || o.kind === 'ActionSet');
		expect(targets).toHaveLength(1);
		const o = targets[0]!;
		const spec = (o['spec'] ?? {}) as {operatorVersion?: {name?: string}};
		const adapted = o.kind === 'Instance' ? adaptInstance(o, operatorVersions.get(spec.operatorVersion?.name ?? '')) : adaptActionSet(o, n => blueprints.get(n), events);
		expect(adapted.name).not.toBe('');
		expect(adapted.summary).not.toBe('');
		expect(uncleanStrings(adapted)).toEqual([]);
		const now = Date.parse(adapted.updatedAt ?? adapted.createdAt ?? '') + 1000;
		expect(Number.isNaN(now)).toBe(false);
		const verdict = waitVerdict(adapted, adapted, {now, deferGraceMs: 30_000, staleMs: 600_000});
		expect({outcome: adapted.outcome, done: verdict.done, ...(verdict.done ? {exitCode: verdict.exitCode} : {})}).toEqual(want);
	});
});

if (present) {
	describe('the shared examples are the ones listed here, and test/fixtures copies match them', () => {
		const copied = readdirSync(examplesDir).filter(f => f.endsWith('.yaml') || f.endsWith('.txt'));
		test('every example with an Instance or ActionSet has its expectation above', () => {
			const withTargets = copied.filter(f => f.endsWith('.yaml') && loadObjectsFromFile(examplesDir + f).some(o => o.kind === 'Instance' || o.kind === 'ActionSet'));
			expect(withTargets.sort()).toEqual(Object.keys(expected).sort());
		});

		test.each(copied)('%s', file => {
			expect(readFileSync(fixturesDir + copyOf(file), 'utf8')).toBe(readFileSync(examplesDir + file, 'utf8'));
		});
	});
}
