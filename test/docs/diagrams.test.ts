import * as fs from 'fs';
import * as path from 'path';
import { generate, IMAGE_DIR, pictureOf } from '../../scripts/diagrams';

/**
 * The pictures in docs/images/ are drawn by scripts/diagrams.ts from the examples' YAML and
 * committed; after changing an example, run `npx ts-node --project tsconfig.dev.json
 * scripts/diagrams.ts`.
 */
const root = path.join(__dirname, '..', '..');
const files = generate();

test('the committed pictures are what scripts/diagrams.ts draws from the examples', () => {
  const committed = fs.readdirSync(path.join(root, IMAGE_DIR)).filter(f => f.endsWith('.svg')).map(f => path.join(IMAGE_DIR, f)).sort();
  expect(committed).toEqual([...files.keys()].sort());
  const stale = [...files].filter(([file, svg]) => fs.readFileSync(path.join(root, file), 'utf8') !== svg).map(([file]) => file);
  expect(stale).toEqual([]);
});

test('every construct page shows a picture that exists', () => {
  const pages = fs.readdirSync(path.join(root, 'docs', 'constructs')).filter(f => f.endsWith('.md'));
  expect(pages).toEqual(expect.arrayContaining(['pytorch.md', 'tensorflow-mpi.md', 'xgboost-paddle-jax-mxjob.md', 'notebooks.md']));
  for (const page of pages) {
    const text = fs.readFileSync(path.join(root, 'docs', 'constructs', page), 'utf8');
    const images = [...text.matchAll(/!\[[^\]]*\]\(\.\.\/images\/([\w-]+\.svg)\)/g)].map(m => m[1]);
    expect({ page, hasImage: images.length > 0 }).toEqual({ page, hasImage: true });
    for (const image of images) expect(files.has(path.join(IMAGE_DIR, image))).toBe(true);
  }
});

test('a job is drawn with its run policy, its roles with pods and Services, and the volumes they mount', () => {
  const picture = pictureOf([{
    apiVersion: 'kubeflow.org/v1',
    kind: 'PyTorchJob',
    metadata: { name: 'j', namespace: 'ns' },
    spec: {
      runPolicy: { cleanPodPolicy: 'All', ttlSecondsAfterFinished: 86400 },
      pytorchReplicaSpecs: {
        Worker: {
          replicas: 3,
          restartPolicy: 'OnFailure',
          template: {
            spec: {
              containers: [{
                name: 'pytorch',
                ports: [{ containerPort: 23456, name: 'pytorchjob-port' }],
                resources: { limits: { 'nvidia.com/gpu': 2 } },
                volumeMounts: [{ name: 'data', mountPath: '/data', readOnly: true }],
              }],
              volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'imagenet' } }],
            },
          },
        },
      },
    },
  }]);
  expect(picture.owners).toEqual([{
    id: 'job:j',
    title: 'PyTorchJob j',
    lines: ['kubeflow.org/v1', 'namespace ns', 'cleanPodPolicy All', 'deleted 1d after it finishes'],
  }]);
  expect(picture.parts).toEqual([{
    id: 'role:j:Worker',
    title: 'Worker × 3',
    lines: ['container pytorch', 'port 23456 (pytorchjob-port)', '2 nvidia.com/gpu', 'restartPolicy OnFailure', 'pods j-worker-0 … -2', 'one headless Service per pod'],
  }]);
  expect(picture.volumes).toEqual([{ id: 'pvc:imagenet', title: 'imagenet', lines: ['PVC (existing)', 'at /data, read-only'] }]);
  expect(picture.edges).toEqual([['job:j', 'role:j:Worker'], ['role:j:Worker', 'pvc:imagenet']]);
});

test('the production example shows its TTL and the MPI example says it has no Services', () => {
  const production = files.get(path.join(IMAGE_DIR, 'pytorch-production.svg'))!;
  expect(production).toContain('>deleted 1d after it finishes</text>');
  expect(production).toContain('>Worker × 3</text>');
  expect(production).toContain('>at /data, read-only</text>');
  expect(files.get(path.join(IMAGE_DIR, 'mpi-reference.svg'))).toContain('>no Services (MPIJob v1)</text>');
});
