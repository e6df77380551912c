/**
 * Conformance: when ../shared/crds (the upstream KUDO and Kanister CRD manifests) is present, install them in a
 * real kube-apiserver of their own and check that every CRD-backed fixture this project uses is accepted by
 * them with strict field validation (no unknown or pruned field, no schema error). Without ../shared the file
 * says so in one test: the project's own CRDs (test/e2e/crds) are what the rest of the suite uses.
 */
import {existsSync, readdirSync} from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {afterAll, beforeAll, describe, expect, it} from 'vitest';
import {type Cluster, startCluster} from './harness/cluster.js';
import {loadObjectsFromFile} from '../helpers/fixtures.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const upstream = path.resolve(repo, '..', 'shared', 'crds');
const fixtures = path.join(repo, 'test', 'fixtures');
const crdBacked = new Set(['kudo.dev/Instance', 'kudo.dev/OperatorVersion', 'kudo.dev/Operator', 'cr.kanister.io/ActionSet', 'cr.kanister.io/Blueprint', 'cr.kanister.io/Profile']);

const deliberatelyInvalid = /hostile|unknown-/;

/** Fixture files holding at least one object of a CRD-backed kind. */
function fixtureFiles(): string[] {
	return ['kudo', 'kanister'].flatMap(dir =>
		readdirSync(path.join(fixtures, dir))
			.filter(f => f.endsWith('.yaml'))
			.map(f => path.join(fixtures, dir, f))
			.filter(file => loadObjectsFromFile(file).some(o => crdBacked.has(`${(o.apiVersion ?? '').split('/')[0]}/${String(o.kind)}`))),
	);
}

if (existsSync(upstream)) {
	describe('fixtures against the upstream CRDs in ../shared/crds', () => {
		let cluster: Cluster;
		beforeAll(async () => {
			cluster = await startCluster({crdDir: upstream});
			const namespaces = new Set(fixtureFiles().flatMap(file => loadObjectsFromFile(file).map(o => o.metadata?.namespace ?? 'default')));
			for (const ns of namespaces) {
				if (ns !== 'default') {
					await cluster.kubectl(['create', 'namespace', ns]);
				}
			}
		});
		afterAll(async () => {
			await cluster?.stop();
		});

		const files = fixtureFiles().map(file => [path.relative(fixtures, file), file] as const);
		it.each(files.filter(([name]) => !deliberatelyInvalid.test(name)))('%s is accepted (server dry run, strict validation)', async (_name, file) => {
			const result = await cluster.kubectl(['create', '--dry-run=server', '--validate=strict', '-o', 'name', '-f', file]);
			expect(result.stderr).toBe('');
			expect(result.code).toBe(0);
		});

		// Hostile and unknown-status fixtures test what planwatch draws when a cluster's (older or looser) CRDs let such
		// objects through; the e2e suite stores them through the project's permissive CRDs. The upstream schemas'
		// enums and name rules reject them, which this checks too, so the list above cannot silently shrink.
		it.each(files.filter(([name]) => deliberatelyInvalid.test(name)))('%s is outside the upstream schema, on purpose', async (_name, file) => {
			const result = await cluster.kubectl(['create', '--dry-run=server', '--validate=strict', '-o', 'name', '-f', file]);
			expect(result.code).not.toBe(0);
		});
	});
} else {
	it('upstream CRD conformance: ../shared/crds is absent, nothing to compare', () => {
		expect(existsSync(upstream)).toBe(false);
	});
}
