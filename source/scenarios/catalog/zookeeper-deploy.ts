import {definitions, scenario} from '../compose.js';
import {uuidFor} from '../ids.js';
import {KudoInstanceTimeline, operatorVersionObject, type RunFrame} from '../kudo-builders.js';
import {zookeeperPackage} from '../kudo-packages.js';
import type {Scenario, ScenarioStep} from '../scenario.js';

/** The install of `zookeeper-instance`, starting at `at` (shared with the tour). */
export function zookeeperDeploySteps(at = 0): ScenarioStep[] {
	// Parallel phase: every step starts in the first reconcile and they finish independently.
	const frames: RunFrame[] = [
		{at: at + 1200, steps: {'zookeeper.config': 'IN_PROGRESS', 'zookeeper.services': 'IN_PROGRESS', 'zookeeper.app': 'IN_PROGRESS'}},
		{at: at + 4200, steps: {'zookeeper.config': 'COMPLETE'}},
		{at: at + 7200, steps: {'zookeeper.services': 'COMPLETE'}},
		{at: at + 21_200, steps: {'zookeeper.app': 'COMPLETE', 'validation.validation': 'IN_PROGRESS'}},
		{at: at + 30_200, steps: {'validation.validation': 'COMPLETE', 'validation.cleanup': 'IN_PROGRESS'}},
		{at: at + 33_200, steps: {'validation.cleanup': 'COMPLETE'}},
	];
	return new KudoInstanceTimeline({name: 'zookeeper-instance', pkg: zookeeperPackage})
		.install(at + 300, uuidFor('zookeeper-instance/deploy'))
		.run(frames)
		.steps;
}

export const zookeeperDeploy: Scenario = scenario(
	{
		name: 'zookeeper-deploy',
		title: 'KUDO zookeeper install: a parallel phase with three steps, then a serial validation phase',
		description:
			'kubectl kudo install zookeeper: phase zookeeper (parallel) applies config, services and the StatefulSet at '
			+ 'once and they finish one by one; then phase validation (serial) runs its Job and cleans it up. COMPLETE.',
	},
	definitions(operatorVersionObject(zookeeperPackage)),
	zookeeperDeploySteps(),
);
