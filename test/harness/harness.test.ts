import { ApiObject, Chart } from 'cdk8s';
import { expectDeterministic, expectValidManifests, synthManifests, validateAgainst, validateManifest } from '.';
import { REPORT } from './messages';
import { libraryErrorField } from '../properties/boundary-arbitraries';

const MASTER = 'spec.pytorchReplicaSpecs.Master';

/** A small valid PyTorchJob; `patch` edits a deep copy before it is validated. */
function pytorchJob(patch: (doc: any) => void = () => {}): any {
  const doc: any = {
    apiVersion: 'kubeflow.org/v1',
    kind: 'PyTorchJob',
    metadata: { name: 'mnist', namespace: 'team-a', labels: { 'kueue.x-k8s.io/queue-name': 'team-a' } },
    spec: {
      runPolicy: { cleanPodPolicy: 'Running', ttlSecondsAfterFinished: 3600 },
      pytorchReplicaSpecs: {
        Master: {
          replicas: 1,
          restartPolicy: 'OnFailure',
          template: {
            metadata: { annotations: { 'sidecar.istio.io/inject': 'false' } },
            spec: {
              containers: [{
                name: 'pytorch',
                image: 'pytorch/pytorch:2.5.0',
                command: ['torchrun', 'train.py'],
                ports: [{ containerPort: 23456, name: 'pytorchjob-port' }],
                resources: { limits: { 'nvidia.com/gpu': 2, 'memory': '32Gi' } },
                volumeMounts: [{ name: 'dshm', mountPath: '/dev/shm' }],
              }],
              volumes: [{ name: 'dshm', emptyDir: { medium: 'Memory', sizeLimit: '8Gi' } }],
            },
          },
        },
      },
    },
  };
  patch(doc);
  return doc;
}

const container = (doc: any) => doc.spec.pytorchReplicaSpecs.Master.template.spec.containers[0];

describe('validateManifest', () => {
  test('accepts a valid PyTorchJob', () => {
    expect(validateManifest(pytorchJob())).toEqual([]);
  });

  test('rejects a misspelled field, naming its path', () => {
    const doc = pytorchJob(d => {
      container(d).imagee = container(d).image;
    });
    expect(validateManifest(doc)).toEqual([`${MASTER}.template.spec.containers[0].imagee: unknown field`]);
  });

  test('rejects a wrong type', () => {
    const doc = pytorchJob(d => {
      d.spec.pytorchReplicaSpecs.Master.replicas = 'two';
    });
    expect(validateManifest(doc)).toEqual([`${MASTER}.replicas: expected integer, got string "two"`]);
  });

  test('an integer must be whole', () => {
    const doc = pytorchJob(d => {
      d.spec.runPolicy.ttlSecondsAfterFinished = 1.5;
    });
    expect(validateManifest(doc)).toEqual(['spec.runPolicy.ttlSecondsAfterFinished: expected integer, got number 1.5']);
  });

  test('rejects a value outside an enum', () => {
    // The pinned training-operator CRDs declare no enums at all (the replica restartPolicy is a free
    // string there, checked only by the operator's webhook), so the enum check is shown on the
    // WorkspaceKind, whose imagePullPolicy is an enum, and on a schema with the replica enum.
    const kind = workspaceKind(k => {
      k.spec.podTemplate.options.imageConfig.values[0].spec.imagePullPolicy = 'Sometimes';
    });
    expect(validateManifest(kind)).toEqual([
      'spec.podTemplate.options.imageConfig.values[0].spec.imagePullPolicy: "Sometimes" is not one of "Always", "IfNotPresent", "Never"',
    ]);
    const replica = { type: 'object', properties: { restartPolicy: { type: 'string', enum: ['Always', 'OnFailure', 'Never', 'ExitCode'] } } };
    expect(validateAgainst(replica, { restartPolicy: 'Sometimes' }, 'spec.pytorchReplicaSpecs.Master')).toEqual([
      `${MASTER}.restartPolicy: "Sometimes" is not one of "Always", "OnFailure", "Never", "ExitCode"`,
    ]);
  });

  test('the pinned PyTorchJob CRD itself does not restrict the replica restartPolicy', () => {
    // Recorded so that nobody relies on the schema for this: the L2 must check it.
    const doc = pytorchJob(d => {
      d.spec.pytorchReplicaSpecs.Master.restartPolicy = 'Sometimes';
    });
    expect(validateManifest(doc)).toEqual([]);
  });

  test('rejects a missing required field (a container without a name)', () => {
    const doc = pytorchJob(d => {
      delete container(d).name;
    });
    expect(validateManifest(doc)).toEqual([`${MASTER}.template.spec.containers[0].name: required field missing`]);
  });

  test('a required field set to null counts as missing', () => {
    const doc = pytorchJob(d => {
      container(d).name = null;
    });
    expect(validateManifest(doc)).toEqual([`${MASTER}.template.spec.containers[0].name: required field missing`]);
  });

  test('drops null values before validating, as the API server does', () => {
    const doc = pytorchJob(d => {
      d.spec.elasticPolicy = null;
      d.spec.runPolicy.backoffLimit = null;
      container(d).args = null;
      container(d).notAField = null;
    });
    expect(validateManifest(doc)).toEqual([]);
  });

  test('checks int-or-string values and the quantity pattern', () => {
    const doc = pytorchJob(d => {
      container(d).resources.limits = { 'cpu': true, 'memory': '32 GB', 'nvidia.com/gpu': 2 };
    });
    const limits = `${MASTER}.template.spec.containers[0].resources.limits`;
    expect(validateManifest(doc)).toEqual([
      `${limits}.cpu: expected integer or string, got boolean true`,
      `${limits}.memory: "32 GB" does not match ^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$`,
    ]);
  });

  test('checks minimum, maximum, lengths and list-map uniqueness', () => {
    const doc = workspace(w => {
      w.spec.podTemplate.volumes.secrets[0].defaultMode = 1000;
      w.spec.displayName = '';
      w.spec.podTemplate.volumes.data.push({ pvcName: 'other', mountPath: '/data/my-data' });
    });
    expect(validateManifest(doc)).toEqual([
      'spec.displayName: "" is shorter than 1 characters',
      'spec.podTemplate.volumes.data[1]: duplicate entry (mountPath "/data/my-data"), first at index 0',
      'spec.podTemplate.volumes.secrets[0].defaultMode: 1000 is greater than the maximum 511',
    ]);
  });

  test('rejects duplicate container names and ports (list-map keys, with defaults)', () => {
    const doc = pytorchJob(d => {
      const c = container(d);
      c.ports.push({ containerPort: 23456, protocol: 'TCP' });
      d.spec.pytorchReplicaSpecs.Master.template.spec.containers.push({ ...c, ports: undefined });
    });
    expect(validateManifest(doc)).toEqual([
      `${MASTER}.template.spec.containers[0].ports[1]: duplicate entry (containerPort, protocol 23456, "TCP"), first at index 0`,
      `${MASTER}.template.spec.containers[1]: duplicate entry (name "pytorch"), first at index 0`,
    ]);
  });

  test('rejects unknown top-level fields and checks metadata loosely', () => {
    const doc = pytorchJob(d => {
      d.status = { conditions: [] };
      d.metadata = { generateName: 'x-', labels: { replicas: 2 } };
    });
    expect(validateManifest(doc)).toEqual([
      'metadata.name: required field missing',
      'metadata.labels.replicas: expected string, got integer 2',
      'status: unknown field',
    ]);
  });

  test('an embedded metadata without properties is free-form, other property-less objects are not', () => {
    const kind = workspaceKind(k => {
      k.spec.podTemplate.extraVolumes = [{
        name: 'scratch',
        ephemeral: { volumeClaimTemplate: { metadata: { labels: { a: 'b' }, anything: 1 }, spec: { accessModes: ['ReadWriteOnce'] } } },
      }];
    });
    expect(validateManifest(kind)).toEqual([]);
    const free = { type: 'object', properties: { metadata: { type: 'object' }, settings: { type: 'object' } } };
    expect(validateAgainst(free, { metadata: { x: 1 }, settings: { x: 1 } })).toEqual(['settings.x: unknown field']);
  });

  test('nodes with x-kubernetes-preserve-unknown-fields accept anything below them', () => {
    // No pinned CRD uses the flag, so a schema of our own stands in.
    const schema = {
      type: 'object',
      properties: {
        config: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true },
        typed: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true, 'properties': { n: { type: 'integer' } } },
        strict: { type: 'object', properties: { n: { type: 'integer' } } },
      },
    };
    const value = {
      config: { anything: { deeply: ['nested', 1, true] }, x: null },
      typed: { n: 1, extra: 'kept' },
      strict: { n: 1, extra: 'rejected' },
    };
    expect(validateAgainst(schema, value)).toEqual(['strict.extra: unknown field']);
    expect(validateAgainst(schema, { typed: { n: 'one' } })).toEqual(['typed.n: expected integer, got string "one"']);
  });

  test('a manifest of an unpinned kind is an error', () => {
    expect(validateManifest({ apiVersion: 'kubeflow.org/v2beta1', kind: 'MPIJob', metadata: { name: 'x' } }))
      .toEqual([': no pinned schema for apiVersion kubeflow.org/v2beta1 kind MPIJob']);
  });
});

describe('expectValidManifests', () => {
  test('passes valid manifests and skips groups without a pinned schema', () => {
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } };
    expect(expectValidManifests([pytorchJob(), configMap, workspace(), workspaceKind()])).toBe(3);
    expect(() => expectValidManifests([configMap], { skipOtherGroups: false }))
      .toThrow('ConfigMap/c (document 0): : no pinned schema for apiVersion v1 kind ConfigMap');
  });

  test('throws one error listing every problem with kind/name and path', () => {
    const bad = pytorchJob(d => {
      container(d).imagee = 'x';
      d.spec.pytorchReplicaSpecs.Master.replicas = 'two';
    });
    expect(() => expectValidManifests([pytorchJob(), bad])).toThrow([
      '2 schema error(s):',
      `  PyTorchJob/mnist (document 1): ${MASTER}.replicas: expected integer, got string "two"`,
      `  PyTorchJob/mnist (document 1): ${MASTER}.template.spec.containers[0].imagee: unknown field`,
    ].join('\n'));
  });
});

describe('expectDeterministic', () => {
  const build = (app: any) => {
    const chart = new Chart(app, 'jobs');
    new ApiObject(chart, 'job', pytorchJob());
    new ApiObject(new Chart(app, 'other'), 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } });
  };

  test('returns the manifests of a deterministic program', () => {
    const docs = expectDeterministic(build);
    expect(docs.map(d => `${d.kind}/${d.metadata.name}`)).toEqual(['PyTorchJob/mnist', 'ConfigMap/c']);
    expect(docs).toEqual(synthManifests(build));
  });

  test('throws when a label differs between two runs', () => {
    let counter = 0;
    const varying = (app: any) => {
      counter++;
      new ApiObject(new Chart(app, 'jobs'), 'job', pytorchJob(d => {
        d.metadata.labels.build = `n${counter}`;
      }));
    };
    expect(() => expectDeterministic(varying)).toThrow(
      'synthesis is not deterministic: jobs.k8s.yaml differs at line 5: "    build: n1" then "    build: n2"');
  });

  test('throws when the file lists differ', () => {
    let runs = 0;
    const varying = (app: any) => {
      runs++;
      new ApiObject(new Chart(app, runs === 1 ? 'first' : 'second'), 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } });
    };
    expect(() => expectDeterministic(varying)).toThrow('the file lists differ: [first.k8s.yaml] then [second.k8s.yaml]');
  });
});

function workspace(patch: (doc: any) => void = () => {}): any {
  const doc: any = {
    apiVersion: 'kubeflow.org/v1beta1',
    kind: 'Workspace',
    metadata: { name: 'alice', namespace: 'alice' },
    spec: {
      displayName: 'Alice',
      kind: 'jupyterlab',
      podTemplate: {
        volumes: {
          home: 'alice-home',
          data: [{ pvcName: 'datasets', mountPath: '/data/my-data', readOnly: true }],
          secrets: [{ secretName: 'creds', mountPath: '/secrets/creds' }],
        },
        options: { imageConfig: 'scipy', podConfig: 'small' },
      },
    },
  };
  patch(doc);
  return doc;
}

function workspaceKind(patch: (doc: any) => void = () => {}): any {
  const doc: any = {
    apiVersion: 'kubeflow.org/v1beta1',
    kind: 'WorkspaceKind',
    metadata: { name: 'jupyterlab' },
    spec: {
      spawner: { displayName: 'JupyterLab', description: 'Notebooks for the team', icon: { url: 'https://example.com/i.svg' }, logo: { url: 'https://example.com/l.svg' } },
      podTemplate: {
        serviceAccount: { clusterRoles: [{ name: 'kubeflow-edit' }] },
        volumeMounts: { home: '/home/jovyan' },
        ports: [{ id: 'jupyterlab', defaultDisplayName: 'JupyterLab', protocol: 'HTTP' }],
        options: {
          imageConfig: {
            spawner: { default: 'scipy' },
            values: [{
              id: 'scipy',
              spawner: { displayName: 'SciPy' },
              spec: { image: 'jupyter/scipy:1', imagePullPolicy: 'IfNotPresent', ports: [{ id: 'jupyterlab', displayName: 'JupyterLab', port: 8888 }] },
            }],
          },
          podConfig: {
            spawner: { default: 'small' },
            values: [{ id: 'small', spawner: { displayName: 'Small' }, spec: { resources: { requests: { cpu: '500m', memory: '1Gi' } } } }],
          },
        },
      },
    },
  };
  patch(doc);
  return doc;
}

describe('the boundary properties read the field a library error names', () => {
  test('a thrown error, a synth-time report, and a document rule that names the prop that set the field', () => {
    expect(libraryErrorField(new Error('test/job: env["A B"] is "x"; expected a name'), 'test/job')).toBe('env["A B"]');
    expect(libraryErrorField(new Error(`${REPORT}  [test/job/Worker] workers is 0; expected 1`), 'test/job')).toBe('workers');
    const report = `${REPORT}  [test/kind] spec.podTemplate.options.imageConfig.spawner.default (defaultImageConfig) is ""; expected the id of an option: "scipy"`;
    expect(libraryErrorField(new Error(report), 'test/kind')).toBe('defaultImageConfig');
  });

  test('anything else is not the library\'s error', () => {
    expect(libraryErrorField(new TypeError('test/job: env is 1; expected a map'), 'test/job')).toBeUndefined();
    expect(libraryErrorField(new Error('other/job: env is 1; expected a map'), 'test/job')).toBeUndefined();
  });
});
