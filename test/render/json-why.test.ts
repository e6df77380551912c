/**
 * `-o json`'s diagnosis keys (docs/stuck.md) against the schema at the top of source/render/json.ts: every key a node
 * can carry — and every key inside its resources, pods and logTail — is documented there, and so is every pod reason.
 */
import {readFile} from 'node:fs/promises';
import {describe, expect, it} from 'vitest';
import type {Diagnosis} from '../../source/model/diagnosis.js';
import {planNode} from '../helpers/ui-objects.js';
import {toJsonNode} from '../../source/render/json.js';

const full: Diagnosis = {
	resources: [{kind: 'Deployment', namespace: 'ns', name: 'web', healthy: false, terminal: false, words: '0/1 ready'}],
	pods: [{
		namespace: 'ns', name: 'web-0', phase: 'Running', ready: '0/1', restarts: 6, reason: 'crash-loop', words: 'CrashLoopBackOff: …',
		short: 'CrashLoopBackOff', container: 'app', previous: true, hasLog: true, trouble: true, labels: {}, deleting: false,
	}],
	cause: 'pod web-0: CrashLoopBackOff: …',
	brief: 'CrashLoopBackOff · pod web-0',
	log: {namespace: 'ns', pod: 'web-0', container: 'app', previous: true},
	logTail: ['panic: no config'],
	currentLog: {namespace: 'ns', pod: 'web-0', container: 'app', previous: false},
	currentTail: ['starting'],
	next: 'kubectl logs -n ns web-0 -c app --previous',
	note: 'pod logs cannot be read: forbidden',
};

const step = planNode('step', 'plan:deploy/phase:main/step:web', 'web', 'IN_PROGRESS', 'running');

async function schemaHead(): Promise<string> {
	const source = await readFile(new URL('../../source/render/json.ts', import.meta.url), 'utf8');
	return source.slice(0, source.indexOf('*/'));
}

describe('-o json: why a node is stuck', () => {
	it('a crash loop: cause, resources, pods, both logs, next and the note', () => {
		const node = toJsonNode(step, undefined, () => full);
		expect(node).toMatchObject({
			cause: full.cause,
			resources: [{kind: 'Deployment', namespace: 'ns', name: 'web', healthy: false, terminal: false, health: '0/1 ready'}],
			pods: [{namespace: 'ns', name: 'web-0', phase: 'Running', ready: '0/1', restarts: 6, reason: 'crash-loop', words: 'CrashLoopBackOff: …', container: 'app'}],
			logTail: {pod: 'web-0', container: 'app', previous: true, lines: ['panic: no config'], currentLines: ['starting']},
			next: full.next,
			watchNote: full.note,
		});
		const {currentTail: _currentTail, ...withoutCurrent} = full;
		expect(toJsonNode(step, undefined, () => withoutCurrent).logTail).not.toHaveProperty('currentLines');
	});

	it('the schema documents every key written, nested ones included', async () => {
		const head = await schemaHead();
		const node = toJsonNode(step, undefined, () => full) as unknown as Record<string, unknown>;
		const keys = new Set<string>();
		const walk = (value: unknown, top: boolean): void => {
			if (Array.isArray(value)) {
				value.forEach(v => walk(v, false));
			} else if (typeof value === 'object' && value !== null) {
				for (const [k, v] of Object.entries(value)) {
					if (!top || ['cause', 'resources', 'pods', 'logTail', 'next', 'watchNote'].includes(k)) {
						keys.add(k);
						walk(v, false);
					}
				}
			}
		};

		walk(node, true);
		expect(keys.size).toBeGreaterThan(15);
		for (const key of keys) {
			expect(head, key).toContain(`"${key}"`);
		}
	});

	it('the schema lists every pod reason planwatch writes, and no other', async () => {
		const source = await readFile(new URL('../../source/model/pod-reason.ts', import.meta.url), 'utf8');
		const union = source.slice(source.indexOf('export type PodReason ='), source.indexOf(';', source.indexOf('export type PodReason =')));
		const reasons = [...union.matchAll(/'([a-z-]+)'/g)].map(m => m[1]).sort();
		const head = await schemaHead();
		const listed = head.slice(head.indexOf('reason: image-pull'), head.indexOf('"logTail"'));
		const documented = [...listed.replace('reason:', '').matchAll(/[a-z]+(?:-[a-z]+)*/g)].map(m => m[0]).sort();
		expect(documented).toEqual(reasons);
	});
});
