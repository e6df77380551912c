/**
 * A Kanister phase's output and an action's artifacts in every view: `-o json` (documented keys), `-o plain` (a line
 * under the phase, the rendered artifacts under the finished action) and the TUI's detail pane.
 */
import {describe, expect, it} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {adaptActionSet} from '../../source/model/adapt-kanister-action-set.js';
import type {PlanObject} from '../../source/model/plan-tree.js';
import {toJsonNode, toJsonObject} from '../../source/render/json.js';
import {renderObjectPlain} from '../../source/render/plain.js';
import {detailLinesWanted, detailText} from '../../source/ui/components/detail-lines.js';
import {loadFixture, loadFixtureObject} from '../helpers/fixtures.js';

const blueprint = loadFixture('kanister/blueprint-mysql-defer.yaml')[0]!;
const adapt = (raw: KubeObject): PlanObject => adaptActionSet(raw, () => blueprint, []);
const complete = adapt(loadFixtureObject('kanister/actionset-mysql-backup-complete.yaml'));
const running = adapt(loadFixtureObject('kanister/actionset-mysql-backup-running.yaml'));
const s3path = '/mysql-backups/mysql-test/mysql-release/2025-06-02T09-56-33/dump.sql.gz';
const plain = (o: PlanObject): string[] => renderObjectPlain(o, undefined, {now: Date.parse('2025-06-02T10:00:00Z'), ascii: false, color: false, timeZone: 'UTC'});

/** A complete ActionSet whose only phase output and artifacts are `output` and `artifacts`. */
function withValues(output: unknown, artifacts: unknown): PlanObject {
	return adaptActionSet(
		{
			metadata: {name: 'v', namespace: 'ns'},
			spec: {actions: [{name: 'backup', blueprint: 'bp'}]},
			status: {state: 'complete', actions: [{name: 'backup', artifacts, phases: [{name: 'dump', state: 'complete', output}]}]},
		},
		() => undefined,
		[],
	);
}

describe('-o json', () => {
	it('carries output on phases and the deferPhase, artifacts with artifactsRendered on the action', () => {
		const [action] = toJsonObject(complete, []).tree;
		expect(action).toMatchObject({
			kind: 'action',
			artifacts: {mysqlCloudDump: {keyValue: {s3path, completedAt: '2025-06-02T09:57:19Z'}}},
			artifactsRendered: true,
		});
		expect(action!.children.map(c => c.output)).toEqual([{s3path}, {completedAt: '2025-06-02T09:57:19Z'}]);
		expect(action).not.toHaveProperty('artifactsTruncated');
		expect(action!.children[0]).not.toHaveProperty('outputTruncated');
		const [pending] = toJsonObject(running, []).tree;
		expect(pending).toMatchObject({artifactsRendered: false});
		expect(pending!.children[0]).not.toHaveProperty('output');
	});

	it('keeps odd shapes as JSON and says when it cut', () => {
		const big = Object.fromEntries(Array.from({length: 500}, (_, i) => [`k${i}`, i]));
		const node = toJsonNode(withValues({list: [1, null, {deep: true}], n: 2.5}, big).tree[0]!);
		expect(node.children[0]).toMatchObject({output: {list: [1, null, {deep: true}], n: 2.5}});
		expect(node.children[0]).not.toHaveProperty('outputTruncated');
		expect(node).toMatchObject({artifactsTruncated: true, artifactsRendered: true});
		expect(Object.keys(node.artifacts!)).toHaveLength(100);
		// The document round-trips: nothing in it is anything but JSON.
		expect(JSON.parse(JSON.stringify(node))).toEqual(node);
	});

	it('the schema at the top of source/render/json.ts documents every key it writes', async () => {
		const {readFile} = await import('node:fs/promises');
		const schema = await readFile(new URL('../../source/render/json.ts', import.meta.url), 'utf8');
		const head = schema.slice(0, schema.indexOf('*/'));
		for (const key of ['"output"', '"outputTruncated"', '"artifacts"', '"artifactsRendered"', '"artifactsTruncated"']) {
			expect(head).toContain(key);
		}
	});
});

describe('-o plain', () => {
	it('a line of output under each phase, the rendered artifacts under the finished action', () => {
		expect(plain(complete)).toEqual([
			'ActionSet kanister/backup-rslmb · blueprint mysql-blueprint-defer · complete · 100%',
			'└─ ✔ backup  statefulset mysql-test/mysql-release  complete',
			'   ├─ ✔ dumpToObjectStore                          complete',
			`   │  output: s3path=${s3path}`,
			'   └─ ⤷ ✔ deferPhase recordBackupCompletion        complete  always runs',
			'      output: completedAt=2025-06-02T09:57:19Z',
			`   artifact mysqlCloudDump: keyValue.s3path=${s3path} · keyValue.completedAt=2025-06-02T09:57:19Z`,
			'✔ backup completed; deferPhase recordBackupCompletion completed',
		]);
	});

	it('no artifacts line while they are templates; ASCII separators in --ascii', () => {
		expect(plain(running).join('\n')).not.toContain('artifact');
		const ascii = renderObjectPlain(complete, undefined, {now: 0, ascii: true, color: false, timeZone: 'UTC'});
		expect(ascii).toContain(`   artifact mysqlCloudDump: keyValue.s3path=${s3path} | keyValue.completedAt=2025-06-02T09:57:19Z`);
	});

	it('a cut is said on the line', () => {
		const o = withValues({s: 'x'.repeat(5000)}, undefined);
		expect(plain(o).find(l => l.includes('output:'))).toMatch(/x…\s\(truncated\)$/);
	});
});

describe('the TUI detail pane', () => {
	it('shows a phase\'s output and the action\'s artifacts (templates marked) for the selected node', () => {
		const [action] = complete.tree;
		expect(detailText(action!.children[0])).toBe(`output: s3path=${s3path}`);
		expect(detailText(action)).toBe(`statefulset mysql-test/mysql-release · artifact mysqlCloudDump: keyValue.s3path=${s3path} · keyValue.completedAt=2025-06-02T09:57:19Z`);
		expect(detailText(running.tree[0])).toContain('artifact template mysqlCloudDump: keyValue.s3path={{ .Phases.dumpToObjectStore.Output.s3path }}');
	});

	it('asks for lines for values (more than for a message alone), none for a node without any', () => {
		const [action] = complete.tree;
		expect(detailLinesWanted(action!.children[0], 200)).toBe(1);
		expect(detailLinesWanted(action, 20)).toBe(5);
		expect(detailLinesWanted(running.tree[0]!.children[0], 20)).toBe(0);
	});
});
