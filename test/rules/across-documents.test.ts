import { AppDocument } from '../../src/rules/app-document';
import { appFindings } from '../../src/rules/rule-sets';
import { exampleDocument, exampleDocuments, exampleFiles, pytorchJob } from '../harness/example-documents';

function job(kind: string, key: string, name: string, types: Record<string, number | undefined>, namespace?: string): any {
  const specs: Record<string, unknown> = {};
  for (const [type, replicas] of Object.entries(types)) {
    specs[type] = { ...(replicas === undefined ? {} : { replicas }), template: { spec: { containers: [{ name: 'main', image: 'busybox' }] } } };
  }
  return { apiVersion: 'kubeflow.org/v1', kind, metadata: { name, ...(namespace === undefined ? {} : { namespace }) }, spec: { [key]: specs } };
}

const at = (path: string, doc: any): AppDocument => ({ path, doc });

describe('app rules on the examples', () => {
  test('the examples together have no findings', () => {
    const files = exampleFiles();
    expect(files.length).toBeGreaterThanOrEqual(12);
    const docs = files.flatMap(file => exampleDocuments(file).map((doc, i) => at(`${file}/${i}`, doc)));
    expect(docs.length).toBeGreaterThan(12);
    expect(appFindings(docs)).toEqual([]);
  });
});

describe('kubernetes/duplicate-object', () => {
  test('two PyTorchJobs of one name and namespace', () => {
    expect(appFindings([at('chart/a', pytorchJob()), at('chart/b', pytorchJob())])).toEqual([{
      path: 'chart/b',
      finding: {
        field: 'metadata.name',
        value: 'resnet',
        rule: 'kubernetes/duplicate-object',
        allowed: 'expected a name no other PyTorchJob in namespace "training" has (chart/a is also PyTorchJob "resnet", and one would replace the other)',
      },
    }]);
  });
  test('the same name in another namespace, or of another kind, is not a duplicate', () => {
    const other = pytorchJob();
    other.metadata.namespace = 'research';
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'resnet', namespace: 'training' } };
    expect(appFindings([at('a', pytorchJob()), at('b', other), at('c', cm)])).toEqual([]);
  });
  test('cluster-scoped kinds are duplicates whatever namespace is written', () => {
    const a = exampleDocument('notebooks-platform.k8s.yaml', 'WorkspaceKind');
    const b = exampleDocument('notebooks-platform.k8s.yaml', 'WorkspaceKind');
    b.metadata.namespace = 'elsewhere';
    expect(appFindings([at('a', a), at('b', b)]).map(x => [x.path, x.finding.rule, x.finding.allowed])).toEqual([[
      'b', 'kubernetes/duplicate-object',
      'expected a name no other WorkspaceKind in no namespace (the default of kubectl\'s context) has (a is also WorkspaceKind "jupyterlab", and one would replace the other)',
    ]]);
  });
});

describe('training-operator/pod-name-collision', () => {
  const finding = (path: string, name: string, ns: string, other: string) => ({
    path, finding: { field: 'metadata.name', value: name, rule: 'training-operator/pod-name-collision', allowed: `expected a job name whose pod and service names no other training job in namespace "${ns}" uses (${other})` },
  });
  test('a PyTorchJob and a TFJob of one name both make a-worker-0', () => {
    expect(appFindings([
      at('c/pt', job('PyTorchJob', 'pytorchReplicaSpecs', 'a', { Master: 1, Worker: 2 }, 'ml')),
      at('c/tf', job('TFJob', 'tfReplicaSpecs', 'a', { Chief: 1, Worker: 4 }, 'ml')),
    ])).toEqual([finding('c/tf', 'a', 'ml', 'PyTorchJob "a" at c/pt also creates a-worker-0')]);
  });
  test('job "a-worker" with a Master and job "a" with a Worker-master type', () => {
    expect(appFindings([
      at('c/x', job('PyTorchJob', 'pytorchReplicaSpecs', 'a-worker', { Master: 1 }, 'ml')),
      at('c/y', job('XGBoostJob', 'xgbReplicaSpecs', 'a', { 'Worker-Master': 1 }, 'ml')),
    ])).toEqual([finding('c/y', 'a', 'ml', 'PyTorchJob "a-worker" at c/x also creates a-worker-master-0')]);
  });
  test('replicas default to 1; zero replicas make no pods', () => {
    expect(appFindings([
      at('c/x', job('PaddleJob', 'paddleReplicaSpecs', 'b', { Worker: undefined }, 'ml')),
      at('c/y', job('JAXJob', 'jaxReplicaSpecs', 'b', { Worker: 1 }, 'ml')),
    ])).toHaveLength(1);
    expect(appFindings([
      at('c/x', job('PaddleJob', 'paddleReplicaSpecs', 'b', { Worker: 0 }, 'ml')),
      at('c/y', job('JAXJob', 'jaxReplicaSpecs', 'b', { Worker: 1 }, 'ml')),
    ])).toEqual([]);
  });
  test('jobs in different namespaces, or with different replica types, do not collide', () => {
    expect(appFindings([
      at('c/x', job('PyTorchJob', 'pytorchReplicaSpecs', 'a', { Worker: 2 }, 'ml')),
      at('c/y', job('TFJob', 'tfReplicaSpecs', 'a', { Worker: 2 }, 'research')),
      at('c/z', job('MPIJob', 'mpiReplicaSpecs', 'a', { Launcher: 1 }, 'ml')),
    ])).toEqual([]);
  });
  test('large replica counts cost nothing', () => {
    const docs = Array.from({ length: 1000 }, (_, i) => at(`c/${i}`, job('PyTorchJob', 'pytorchReplicaSpecs', `j${i}`, { Master: 1, Worker: 100000 }, 'ml')));
    const start = Date.now();
    expect(appFindings(docs)).toEqual([]);
    expect(Date.now() - start).toBeLessThan(1000);
  });
});

describe('kubernetes/claim-namespace', () => {
  const claim = (name: string, namespace: string) => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name, namespace }, spec: {} });
  const withClaim = () => {
    const doc = pytorchJob();
    doc.spec.pytorchReplicaSpecs.Worker.template.spec.volumes.push({ name: 'data', persistentVolumeClaim: { claimName: 'imagenet' } });
    return doc;
  };
  test('a job mounting the app\'s claim from another namespace', () => {
    expect(appFindings([at('c/pvc', claim('imagenet', 'datasets')), at('c/job', withClaim())])).toEqual([{
      path: 'c/job',
      finding: {
        field: 'spec.pytorchReplicaSpecs.Worker.template.spec.volumes[data].persistentVolumeClaim.claimName',
        value: 'imagenet',
        rule: 'kubernetes/claim-namespace',
        allowed: 'expected a claim in the object\'s own namespace "training" (the app\'s claim "imagenet" is in namespace "datasets"; pods mount claims of their own namespace only)',
      },
    }]);
  });
  test('a claim in the job\'s namespace, or one the app does not create, is fine', () => {
    expect(appFindings([at('c/pvc', claim('imagenet', 'training')), at('c/other', claim('imagenet', 'datasets')), at('c/job', withClaim())])).toEqual([]);
    expect(appFindings([at('c/pvc', claim('other', 'datasets')), at('c/job', withClaim())])).toEqual([]);
  });
  test('a Workspace home claim from another namespace', () => {
    const ws = exampleDocument('notebooks-team-vision.k8s.yaml', 'Workspace', 'alice');
    const pvc = exampleDocument('notebooks-team-vision.k8s.yaml', 'PersistentVolumeClaim', 'alice-home');
    pvc.metadata.namespace = 'team-nlp';
    expect(appFindings([at('c/pvc', pvc), at('c/ws', ws)]).map(x => [x.path, x.finding.field, x.finding.value])).toEqual([
      ['c/ws', 'spec.podTemplate.volumes.home', 'alice-home'],
    ]);
  });
});

describe('kueue/multikueue-queue', () => {
  test('managedBy MultiKueue without a queue label', () => {
    const doc = pytorchJob();
    doc.spec.runPolicy = { managedBy: 'kueue.x-k8s.io/multikueue' };
    expect(appFindings([at('c/job', doc)])).toEqual([{
      path: 'c/job',
      finding: {
        field: 'metadata.labels["kueue.x-k8s.io/queue-name"]',
        value: undefined,
        rule: 'kueue/multikueue-queue',
        allowed: 'expected the name of a Kueue LocalQueue when spec.runPolicy.managedBy is "kueue.x-k8s.io/multikueue" (without it no controller runs the job)',
      },
    }]);
  });
  test('with a queue label, or managed by the operator, it is fine', () => {
    const labelled = pytorchJob();
    labelled.spec.runPolicy = { managedBy: 'kueue.x-k8s.io/multikueue' };
    labelled.metadata.labels = { 'kueue.x-k8s.io/queue-name': 'team-a' };
    const operator = pytorchJob();
    operator.metadata.name = 'other';
    operator.spec.runPolicy = { managedBy: 'kubeflow.org/training-operator' };
    expect(appFindings([at('a', labelled), at('b', operator)])).toEqual([]);
  });
});

describe('kueue/multikueue-queue: the queue\'s ClusterQueue and MultiKueue\'s admission check', () => {
  const API = 'kueue.x-k8s.io/v1beta1';
  /** A PyTorchJob handed to MultiKueue from LocalQueue "remote" of its namespace, whose ClusterQueue is "remote-cq". */
  function remoteJob(): any {
    const doc = pytorchJob();
    doc.spec.runPolicy = { managedBy: 'kueue.x-k8s.io/multikueue' };
    doc.metadata.labels = { 'kueue.x-k8s.io/queue-name': 'remote' };
    return doc;
  }
  const localQueue = (namespace: string) => ({ apiVersion: API, kind: 'LocalQueue', metadata: { name: 'remote', namespace }, spec: { clusterQueue: 'remote-cq' } });
  const clusterQueue = (spec: object = {}) => ({ apiVersion: API, kind: 'ClusterQueue', metadata: { name: 'remote-cq' }, spec: { namespaceSelector: {}, resourceGroups: [], ...spec } });
  const check = (name: string, controllerName: string) => ({ apiVersion: API, kind: 'AdmissionCheck', metadata: { name }, spec: { controllerName } });
  const findings = (...docs: any[]) => appFindings(docs.map((d, i) => at(`c/${i}`, d))).filter(f => f.finding.rule === 'kueue/multikueue-queue');

  test('a ClusterQueue of the input without an admission check: Kueue admits the job here, where nothing runs it', () => {
    const remote = remoteJob();
    expect(findings(remote, localQueue(remote.metadata.namespace), clusterQueue())).toEqual([{
      path: 'c/0',
      finding: {
        field: 'metadata.labels["kueue.x-k8s.io/queue-name"]',
        value: 'remote',
        rule: 'kueue/multikueue-queue',
        allowed: 'expected a LocalQueue whose ClusterQueue has MultiKueue\'s AdmissionCheck (controllerName "kueue.x-k8s.io/multikueue"): ClusterQueue "remote-cq" has no admission check, '
          + 'so Kueue admits the job in this cluster, reserves its quota and lifts its suspension, and nothing runs it (its own controller leaves a job managed by MultiKueue alone)',
      },
    }]);
  });
  test('only admission checks of other controllers, as the input defines them; a TrainJob says managedBy in its spec', () => {
    const trainJob = {
      apiVersion: 'trainer.kubeflow.org/v1alpha1',
      kind: 'TrainJob',
      metadata: { name: 'vit', namespace: 'team-a', labels: { 'kueue.x-k8s.io/queue-name': 'remote' } },
      spec: { runtimeRef: { name: 'torch-distributed' }, managedBy: 'kueue.x-k8s.io/multikueue' },
    };
    expect(findings(trainJob, localQueue('team-a'), clusterQueue({ admissionChecks: ['capacity'] }), check('capacity', 'kueue.x-k8s.io/provisioning-request'))
      .map(f => f.finding.allowed)).toEqual([
      'expected a LocalQueue whose ClusterQueue has MultiKueue\'s AdmissionCheck (controllerName "kueue.x-k8s.io/multikueue"): ClusterQueue "remote-cq" has only admission checks of other controllers ("capacity"), '
        + 'so Kueue admits the job in this cluster, reserves its quota and lifts its suspension, and nothing runs it (its own controller leaves a job managed by MultiKueue alone)',
    ]);
  });
  test('a MultiKueue check, a check the input does not define (it may be MultiKueue\'s), or a queue the input does not define: no finding', () => {
    const remote = remoteJob();
    const ns = remote.metadata.namespace;
    expect(findings(remote, localQueue(ns), clusterQueue({ admissionChecks: ['multikueue'] }), check('multikueue', 'kueue.x-k8s.io/multikueue'))).toEqual([]);
    expect(findings(remote, localQueue(ns), clusterQueue({ admissionChecksStrategy: { admissionChecks: [{ name: 'multikueue' }] } }))).toEqual([]);
    expect(findings(remote, localQueue(ns), clusterQueue({ admissionChecks: ['elsewhere'] }))).toEqual([]);
    expect(findings(remote, clusterQueue())).toEqual([]);
    expect(findings(remote, localQueue('another-namespace'), clusterQueue())).toEqual([]);
  });
});

describe('kueue/queue-name', () => {
  test('a queue name that is a label value but no DNS-1123 subdomain, on a kind Kueue manages', () => {
    const doc = pytorchJob();
    doc.metadata.labels = { 'kueue.x-k8s.io/queue-name': 'Team_A' };
    expect(appFindings([at('c/job', doc)])).toEqual([{
      path: 'c/job',
      finding: {
        field: 'metadata.labels["kueue.x-k8s.io/queue-name"]',
        value: 'Team_A',
        rule: 'kueue/queue-name',
        allowed: 'expected a DNS-1123 subdomain: at most 253 lower-case letters, digits, "-" or ".", each dot-separated part starting and ending with a letter or digit: it names a LocalQueue, and Kueue\'s webhook refuses the job otherwise',
      },
    }]);
  });
  test('a subdomain, or a kind Kueue does not validate (a v1 MPIJob), is fine', () => {
    const good = pytorchJob();
    good.metadata.labels = { 'kueue.x-k8s.io/queue-name': 'team-a.gpu' };
    const mpi = { apiVersion: 'kubeflow.org/v1', kind: 'MPIJob', metadata: { name: 'm', namespace: 'ml', labels: { 'kueue.x-k8s.io/queue-name': 'Team_A' } }, spec: {} };
    expect(appFindings([at('a', good), at('b', mpi)])).toEqual([]);
  });
});
