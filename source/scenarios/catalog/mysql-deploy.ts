import {definitions, scenario} from '../compose.js';
import {uuidFor} from '../ids.js';
import {KudoInstanceTimeline, operatorVersionObject, transientError, type RunFrame} from '../kudo-builders.js';
import {mysqlPackage} from '../kudo-packages.js';
import type {Scenario, ScenarioStep} from '../scenario.js';

const quota = 'jobs.batch "deploy-job" is forbidden: exceeded quota: compute-resources, requested: limits.cpu=500m, used: ' +
	'limits.cpu=3800m, limited: limits.cpu=4';

/** The install of `mysql-instance`, starting at `at` (shared with the tour). */
export function mysqlDeploySteps(at = 0): ScenarioStep[] {
	const frames: RunFrame[] = [
		{at: at + 1500, steps: {'deploy.deploy': 'IN_PROGRESS'}},
		{at: at + 8500, steps: {'deploy.deploy': 'COMPLETE', 'deploy.init': 'IN_PROGRESS'}},
		{at: at + 12_500, steps: {'deploy.init': {status: 'ERROR', message: transientError('deploy.deploy.init.init', quota)}}},
		{at: at + 19_500, steps: {'deploy.init': 'IN_PROGRESS'}},
		{at: at + 24_500, steps: {'deploy.init': 'COMPLETE', 'deploy.cleanup': 'IN_PROGRESS'}},
		{at: at + 28_500, steps: {'deploy.cleanup': 'COMPLETE'}},
	];
	return new KudoInstanceTimeline({name: 'mysql-instance', pkg: mysqlPackage})
		.install(at + 500, uuidFor('mysql-instance/deploy'))
		.run(frames)
		.steps;
}

export const mysqlDeploy: Scenario = scenario(
	{
		name: 'mysql-deploy',
		title: 'KUDO mysql install: a step hits a transient ERROR, is retried and the plan completes',
		description:
			'kubectl kudo install mysql: the deploy plan (one serial phase: deploy → init → cleanup) runs; the init Job is '
			+ 'refused by a ResourceQuota for a few seconds (step ERROR, retried by KUDO), then goes through and the plan COMPLETEs.',
	},
	definitions(operatorVersionObject(mysqlPackage)),
	mysqlDeploySteps(),
);
