/**
 * Why it is stuck, why it failed: a KUDO step whose Deployment's pod crash-loops (the manager keeps the step
 * IN_PROGRESS: KUDO calls the Deployment unhealthy), and a Kanister backup whose KubeTask pod fails and is
 * deleted, leaving the last lines of its log. The objects carry the marks the real KUDO manager and Kanister
 * write (see source/model/kudo-applied.ts and source/model/diagnosis.ts); statuses are what a kubelet writes.
 */
import {definitions, scenario} from '../compose.js';
import {uuidFor} from '../ids.js';
import {actionSetTimeline, blueprintObject, objectRef, type ActionSetDef} from '../kanister-builders.js';
import {mysqlBlueprint} from '../kanister-blueprints.js';
import {KudoInstanceTimeline, operatorVersionObject} from '../kudo-builders.js';
import {mysqlPackage} from '../kudo-packages.js';
import {logStep, type Scenario, type ScenarioStep} from '../scenario.js';

const instance = 'shop-db';
const deployment = `${instance}-mysql`;
const kudoPod = `${deployment}-6c9f7b8d4-x2k4q`;
const kudoLabels = {heritage: 'kudo', 'kudo.dev/operator': 'mysql', 'kudo.dev/instance': instance};
const appLabels = {app: 'mysql', instance};
const image = 'mysql:5.7';
/** What the containers end with, as a kubelet writes it (a process's own code, not one of planwatch's). */
const mysqlExit = 1;
const jobExit = 2;

/** The Deployment as the manager applies it for deploy/deploy/deploy (annotations on the top-level object only). */
/** What the deployment controller writes once the pod is ready. */
const readyStatus = {observedGeneration: 1, replicas: 1, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1};

function deploymentObject(): Record<string, unknown> {
	return {
		apiVersion: 'apps/v1',
		kind: 'Deployment',
		metadata: {
			name: deployment,
			labels: kudoLabels,
			annotations: {
				'kudo.dev/plan': 'deploy',
				'kudo.dev/phase': 'deploy',
				'kudo.dev/step': 'deploy',
				'kudo.dev/last-plan-execution-uid': uuidFor(`${instance}/deploy`),
				'kudo.dev/operator-version': mysqlPackage.version,
			},
		},
		spec: {
			replicas: 1,
			selector: {matchLabels: appLabels},
			template: {metadata: {labels: {...appLabels, ...kudoLabels}}, spec: {containers: [{name: 'mysql', image}]}},
		},
		status: {observedGeneration: 1, replicas: 1, updatedReplicas: 1, readyReplicas: 0, availableReplicas: 0, unavailableReplicas: 1},
	};
}

/** The kubelet's words for a container waiting to be restarted (the delay doubles up to 5 minutes). */
function backOff(restarts: number): string {
	return `back-off ${10 * 2 ** Math.min(restarts, 5)}s restarting failed container=mysql pod=${kudoPod}`;
}

function crashingPod(restarts: number, waiting: boolean): Record<string, unknown> {
	return {
		apiVersion: 'v1',
		kind: 'Pod',
		metadata: {name: kudoPod, labels: {...appLabels, ...kudoLabels, 'pod-template-hash': '6c9f7b8d4'}},
		spec: {containers: [{name: 'mysql', image}], nodeName: 'worker-2'},
		status: {
			phase: 'Running',
			conditions: [{type: 'PodScheduled', status: 'True'}, {type: 'Ready', status: 'False', reason: 'ContainersNotReady'}],
			containerStatuses: [{
				name: 'mysql',
				image,
				ready: false,
				restartCount: restarts,
				state: waiting ? {waiting: {reason: 'CrashLoopBackOff', message: backOff(restarts)}} : {running: {}},
				...(restarts > 0 ? {lastState: {terminated: {exitCode: mysqlExit, reason: 'Error'}}} : {}),
			}],
		},
	};
}

function healthyPod(restarts: number): Record<string, unknown> {
	const pod = crashingPod(restarts, false);
	const status = pod['status'] as Record<string, unknown>;
	const [container] = status['containerStatuses'] as Array<Record<string, unknown>>;
	return {
		...pod,
		status: {
			...status,
			conditions: [{type: 'PodScheduled', status: 'True'}, {type: 'Ready', status: 'True'}],
			containerStatuses: [{...container, ready: true}],
		},
	};
}

const mysqlCrash = [
	'2026-03-02T10:14:07.118Z 0 [Note] mysqld (mysqld 5.7.44) starting as process 1 ...',
	"2026-03-02T10:14:07.121Z 0 [ERROR] InnoDB: The innodb_system data file 'ibdata1' must be writable",
	'2026-03-02T10:14:07.121Z 0 [ERROR] InnoDB: Plugin initialization aborted with error Generic error',
	'2026-03-02T10:14:07.122Z 0 [ERROR] Failed to initialize builtin plugins.',
	'2026-03-02T10:14:07.122Z 0 [ERROR] Aborting',
].join('\n') + '\n';

function kudoSteps(): ScenarioStep[] {
	const timeline = new KudoInstanceTimeline({name: instance, pkg: mysqlPackage})
		.install(500, uuidFor(`${instance}/deploy`))
		.run([
			{at: 1500, steps: {'deploy.deploy': 'IN_PROGRESS'}},
			// The volume's permissions fixed, the next start works: KUDO calls the Deployment healthy, the plan goes on.
			{at: 31_000, steps: {'deploy.deploy': 'COMPLETE', 'deploy.init': 'IN_PROGRESS'}},
			{at: 34_000, steps: {'deploy.init': 'COMPLETE', 'deploy.cleanup': 'IN_PROGRESS'}},
			{at: 36_000, steps: {'deploy.cleanup': 'COMPLETE'}},
		])
		.steps;
	const pod = (at: number, op: 'create' | 'status', restarts: number, waiting: boolean): ScenarioStep => (
		{at, op, resource: 'Pod', object: crashingPod(restarts, waiting)}
	);
	const steps: ScenarioStep[] = [
		{at: 1600, op: 'create', resource: 'Deployment', object: deploymentObject()},
		{at: 1700, op: 'status', resource: 'Deployment', object: deploymentObject()},
		pod(2000, 'create', 0, false),
		pod(2100, 'status', 0, false),
	];
	// Each restart: the container runs, dies, waits longer (CrashLoopBackOff); its previous log is the crash.
	for (let restart = 1; restart <= 6; restart++) {
		const at = 2000 + (restart * 4000);
		steps.push(
			pod(at, 'status', restart, true),
			logStep(at, {pod: kudoPod, container: 'mysql', text: mysqlCrash, previous: true, reset: true}),
		);
	}

	steps.push(
		{at: 30_000, op: 'status', resource: 'Pod', object: healthyPod(7)},
		{at: 30_500, op: 'status', resource: 'Deployment', object: {...deploymentObject(), status: {...readyStatus}}},
	);
	return [...timeline, ...steps].sort((a, b) => a.at - b.at);
}

const backupName = 'backup-orders-7q2lx';
const kanisterPod = 'kanister-job-m8wzt';

const backup: ActionSetDef = {
	name: backupName,
	blueprint: mysqlBlueprint,
	action: 'backup',
	object: objectRef('statefulset', 'shop', 'orders-mysql'),
	profile: objectRef('', 'shop', 's3-profile-k2d9v'),
};

function kanisterJob(phase: 'Running' | 'Failed'): Record<string, unknown> {
	return {
		apiVersion: 'v1',
		kind: 'Pod',
		// pkg/kube/pod.go createPodSpec: generateName kanister-job-, label createdBy: kanister.
		metadata: {name: kanisterPod, labels: {createdBy: 'kanister'}},
		spec: {containers: [{name: 'container', image: 'ghcr.io/kanisterio/mysql-sidecar:0.114.0'}], restartPolicy: 'Never'},
		status: phase === 'Running'
			? {
				phase,
				conditions: [{type: 'Ready', status: 'True'}],
				containerStatuses: [{name: 'container', ready: true, restartCount: 0, state: {running: {}}}],
			}
			: {
				phase,
				containerStatuses: [{
					name: 'container',
					ready: false,
					restartCount: 0,
					state: {terminated: {exitCode: jobExit, reason: 'Error'}},
				}],
			},
	};
}

function kanisterSteps(at: number): ScenarioStep[] {
	const timeline = actionSetTimeline(backup, {
		at,
		phases: [{durationMs: 13_000, fail: 'null: Failed to execute phase: command terminated with exit code 2'}],
		deferPhase: {durationMs: 3000, output: {completedAt: '2026-03-02T10:15:40Z'}},
	});
	const job = (t: number, op: 'create' | 'status' | 'delete', phase: 'Running' | 'Failed' = 'Running'): ScenarioStep => (
		{at: at + t, op, resource: 'Pod', object: kanisterJob(phase)}
	);
	const log = (t: number, text: string): ScenarioStep => logStep(at + t, {pod: kanisterPod, container: 'container', text});
	return [
		...timeline,
		job(1600, 'create'),
		job(1700, 'status'),
		log(2500, '+ mysqldump --all-databases\n'),
		log(4000, '+ gzip -\n+ kando location push --path /mysql-backups/shop/orders-mysql/dump.sql.gz -\n'),
		log(9000, 'mysqldump: Got error: 2002: "Can\'t connect to local MySQL server through socket '
			+ '\'/var/run/mysqld/mysqld.sock\' (2)" when trying to connect\n'),
		log(9500, 'Error: failed to push data to location: no data read from stdin\n'),
		job(11_000, 'status', 'Failed'),
		job(12_500, 'delete'),
	].sort((a, b) => a.at - b.at);
}

export const whyStuck: Scenario = scenario(
	{
		name: 'why-stuck',
		title: 'Why it is stuck, why it failed: a crash-looping KUDO pod and a failed Kanister phase with its last log lines',
		description:
			'KUDO installs mysql: the deploy step applies a Deployment whose pod crash-loops (restarts, last exit code 1), '
			+ 'so the step stays IN_PROGRESS until the pod starts cleanly and the plan completes. A Kanister backup runs a '
			+ 'KubeTask pod whose mysqldump cannot connect: the '
			+ 'pod fails and is deleted, the phase fails. planwatch shows each one\'s pod, the last log lines and the next command.',
	},
	definitions(operatorVersionObject(mysqlPackage), blueprintObject(mysqlBlueprint)),
	[...kudoSteps(), ...kanisterSteps(5000)].sort((a, b) => a.at - b.at),
);
