import {execFileSync} from 'node:child_process';
import {existsSync} from 'node:fs';
import {describe, expect, test} from 'vitest';
import {podFacts} from '../../source/model/pod-reason.js';
import {maxNameLength, sanitizeLine} from '../../source/model/sanitize.js';
import {nextCommand, shellQuote} from '../../source/model/next-command.js';
import type {PodFacts, PodReason} from '../../source/model/pod-reason.js';

function pod(reason: PodReason, extra: Partial<PodFacts> = {}): PodFacts {
	return {
		namespace: 'ns', name: 'web-0', phase: 'Running', ready: '0/1', restarts: 0, reason, words: '', short: '', container: 'app', previous: false, hasLog: true,
		trouble: true, labels: {}, deleting: false, ...extra,
	};
}

describe('shellQuote', () => {
	test.each([
		['web-0', 'web-0'],
		['involvedObject.name=web-0', 'involvedObject.name=web-0'],
		['', "''"],
		['a b', "'a b'"],
		["it's", String.raw`'it'\''s'`],
		['$(rm -rf /)', "'$(rm -rf /)'"],
		['`x`;y', "'`x`;y'"],
	])('%j → %s', (word, quoted) => {
		expect(shellQuote(word)).toBe(quoted);
	});
});

describe('nextCommand: every reason → the command to run next', () => {
	test.each<[string, Parameters<typeof nextCommand>[0], string]>([
		['crash loop: the previous log', {kind: 'pod', pod: pod('crash-loop', {previous: true})}, 'kubectl logs -n ns web-0 -c app --previous'],
		['exited: the current log', {kind: 'pod', pod: pod('exited')}, 'kubectl logs -n ns web-0 -c app'],
		['oom killed and restarted', {kind: 'pod', pod: pod('oom-killed', {previous: true})}, 'kubectl logs -n ns web-0 -c app --previous'],
		['failed pod', {kind: 'pod', pod: pod('failed')}, 'kubectl logs -n ns web-0 -c app'],
		['unschedulable: the events', {kind: 'pod', pod: pod('unschedulable')}, 'kubectl get events -n ns --field-selector involvedObject.name=web-0'],
		['image pull: describe', {kind: 'pod', pod: pod('image-pull')}, 'kubectl describe pod -n ns web-0'],
		['not ready: describe (probe events)', {kind: 'pod', pod: pod('not-ready')}, 'kubectl describe pod -n ns web-0'],
		['config error: describe', {kind: 'pod', pod: pod('config-error')}, 'kubectl describe pod -n ns web-0'],
		['an unhealthy object', {kind: 'resource', resource: {kind: 'StatefulSet', namespace: 'ns', name: 'db', healthy: false, terminal: false, words: ''}}, 'kubectl describe statefulset -n ns db'],
		['a failed KUDO plan: trigger it again', {kind: 'kudo-step', namespace: 'ns', instance: 'inst', plan: 'deploy', failed: true}, 'kubectl kudo plan trigger --name deploy --instance inst -n ns'],
		['a stuck KUDO step: its events', {kind: 'kudo-step', namespace: 'ns', instance: 'inst', plan: 'deploy', failed: false}, 'kubectl get events -n ns --field-selector involvedObject.name=inst'],
		[
			'a failed Kanister action: run it again from it',
			{kind: 'kanister-action', namespace: 'kanister', actionSet: 'backup-x', action: 'backup', failed: true},
			'kanctl create actionset --action backup --from backup-x --namespace kanister',
		],
		[
			'a stuck Kanister action: its events',
			{kind: 'kanister-action', namespace: 'kanister', actionSet: 'backup-x', action: 'backup', failed: false},
			'kubectl get events -n kanister --field-selector involvedObject.name=backup-x',
		],
		['a pod without a container name', {kind: 'pod', pod: pod('exited', {container: undefined})}, 'kubectl logs -n ns web-0'],
		['another waiting reason: describe', {kind: 'pod', pod: pod('waiting')}, 'kubectl describe pod -n ns web-0'],
		['pending: describe', {kind: 'pod', pod: pod('pending')}, 'kubectl describe pod -n ns web-0'],
		['no status yet: describe', {kind: 'pod', pod: pod('unknown')}, 'kubectl describe pod -n ns web-0'],
		['a Kanister pod that completed: its log', {kind: 'pod', pod: pod('succeeded')}, 'kubectl logs -n ns web-0 -c app'],
		['a ready pod: its log', {kind: 'pod', pod: pod('ready')}, 'kubectl logs -n ns web-0 -c app'],
		['a terminating pod: its log', {kind: 'pod', pod: pod('terminating')}, 'kubectl logs -n ns web-0 -c app'],
		['an unhealthy Job', {kind: 'resource', resource: {kind: 'Job', namespace: 'ns', name: 'init', healthy: false, terminal: true, words: ''}}, 'kubectl describe job -n ns init'],
	])('%s', (_name, input, expected) => {
		expect(nextCommand(input)).toBe(expected);
	});

	test('odd names are quoted', () => {
		expect(nextCommand({kind: 'kudo-step', namespace: 'ns', instance: 'inst', plan: "my plan's", failed: true})).toBe(
			String.raw`kubectl kudo plan trigger --name 'my plan'\''s' --instance inst -n ns`,
		);
	});
});

describe('hostile names: what a pasted next command runs is exactly the command shown', () => {
	// Names as the cluster could send them (any byte in an annotation, a label, a generateName'd pod of a hostile
	// template), through the one sanitizer (podFacts) and the quoting: the shell gets the words back, runs nothing else.
	const hostile = [
		"it's",
		'$(touch /tmp/planwatch-pwned)',
		'`touch /tmp/planwatch-pwned`',
		'a;touch /tmp/planwatch-pwned',
		'line\nbreak',
		'esc\u001B]52;c;cHduZWQ=\u0007ape',
		'tab\there',
		"'\"${HOME}\"'",
		'-n',
		'',
	];

	test.each(hostile)('%j', name => {
		const raw = {
			apiVersion: 'v1', kind: 'Pod',
			metadata: {name, namespace: name},
			spec: {containers: [{name}]},
			status: {phase: 'Running', containerStatuses: [{name, restartCount: 1, state: {waiting: {reason: 'CrashLoopBackOff'}}}]},
		};
		const facts = podFacts(raw);
		// The adapters sanitize object names as podFacts does pods' (the one sanitizer).
		const clean = sanitizeLine(name, maxNameLength);
		const commands = [
			nextCommand({kind: 'pod', pod: facts}),
			nextCommand({kind: 'pod', pod: {...facts, reason: 'unschedulable'}}),
			nextCommand({kind: 'kudo-step', namespace: clean, instance: clean, plan: clean, failed: true}),
			nextCommand({kind: 'kanister-action', namespace: clean, actionSet: clean, action: clean, failed: true}),
		];
		const expected = [
			['logs', '-n', clean, clean, ...(clean ? ['-c', clean] : []), '--previous'],
			['get', 'events', '-n', clean, '--field-selector', `involvedObject.name=${clean}`],
			['kudo', 'plan', 'trigger', '--name', clean, '--instance', clean, '-n', clean],
			['create', 'actionset', '--action', clean, '--from', clean, '--namespace', clean],
		];
		for (const [i, line] of commands.entries()) {
			// One line, no control character: nothing a terminal would act on when it is shown or pasted.
			expect(line).not.toMatch(/[\u0000-\u001F\u007F-\u009F]/u);
			// The shell splits it into exactly the words planwatch meant (`printf` stands in for kubectl/kanctl).
			const words = execFileSync('sh', ['-c', `w() { printf '%s\\0' "$@"; }; w ${line.slice(line.indexOf(' ') + 1)}`], {encoding: 'utf8'});
			expect(words.split('\0').slice(0, -1)).toEqual(expected[i]);
		}

		expect(existsSync('/tmp/planwatch-pwned')).toBe(false);
	});
});
