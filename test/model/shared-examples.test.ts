/**
 * Conformance against the project's shared examples (../shared/examples from the repo root), when that directory
 * exists: every Instance and ActionSet there adapts cleanly, and our fixture copies have not drifted. The tests of
 * this repo never need it: test/fixtures holds copies.
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

if (present) {
	const files = readdirSync(examplesDir).filter(f => f.endsWith('.yaml')).sort();
	const loaded = files.map(file => ({file, objects: loadObjectsFromFile(examplesDir + file)}));
	const all = loaded.flatMap(l => l.objects);
	const ofKind = (kind: string): KubeObject[] => all.filter(o => o.kind === kind);
	const operatorVersions = new Map(ofKind('OperatorVersion').map(o => [o.metadata?.name ?? '', o]));
	const blueprints = new Map(ofKind('Blueprint').map(o => [o.metadata?.name ?? '', o]));
	const events = ofKind('Event').flatMap(e => adaptEvent(e) ?? []);
	const targets = loaded.filter(l => l.objects.some(o => o.kind === 'Instance' || o.kind === 'ActionSet')).map(l => l.file);

	describe('shared examples adapt cleanly', () => {
		test('there are examples of both kinds', () => {
			expect(ofKind('Instance').length).toBeGreaterThan(0);
			expect(ofKind('ActionSet').length).toBeGreaterThan(0);
		});

		test.each(targets)('%s', file => {
			for (const o of loaded.find(l => l.file === file)!.objects) {
				const spec = (o['spec'] ?? {}) as {operatorVersion?: {name?: string}};
				const adapted =
					o.kind === 'Instance'
						? adaptInstance(o, operatorVersions.get(spec.operatorVersion?.name ?? ''))
						: o.kind === 'ActionSet'
							? adaptActionSet(o, n => blueprints.get(n), events)
							: undefined;
				if (!adapted) {
					continue;
				}

				expect(adapted.name).not.toBe('');
				expect(adapted.summary).not.toBe('');
				expect(uncleanStrings(adapted)).toEqual([]);
				const verdict = waitVerdict(adapted, adapted, {now: Date.now(), deferGraceMs: 30_000, staleMs: 600_000});
				expect(typeof verdict.done).toBe('boolean');
			}
		});
	});

	describe('test/fixtures copies match the shared examples', () => {
		const copyOf = (file: string): string =>
			file.startsWith('kudo-') ? `kudo/${file.slice(5)}` : file.startsWith('kanister-') ? `kanister/${file.slice(9)}` : file.startsWith('blueprint-') ? `kanister/${file}` : `kudo/${file}`;
		const copied = readdirSync(examplesDir).filter(f => f.endsWith('.yaml') || f.endsWith('.txt'));
		test.each(copied)('%s', file => {
			expect(readFileSync(fixturesDir + copyOf(file), 'utf8')).toBe(readFileSync(examplesDir + file, 'utf8'));
		});
	});
} else {
	test('shared examples are not here: only the fixture copies are checked', () => {
		console.info(`no ${examplesDir}: shared-example conformance has nothing to check`);
		expect(existsSync(examplesDir)).toBe(false);
	});
}
