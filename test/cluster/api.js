// The API client of the cluster tier: HTTPS with the admin token of control-plane.sh, REST paths
// found through API discovery (no kubectl), and the document helpers check.js and trainer.js share.
'use strict';

const fs = require('fs');
const https = require('https');
const yaml = require('js-yaml');

const server = new URL(process.env.CLUSTER_SERVER);
const token = process.env.CLUSTER_TOKEN;
const ca = fs.readFileSync(process.env.CLUSTER_CA);

function request(method, urlPath, body, contentType = 'application/json') {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = https.request({
      host: server.hostname, port: server.port, path: urlPath, method, ca,
      headers: {
        'Authorization': `Bearer ${token}`,
        'Accept': 'application/json',
        ...(data ? { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(data) } : {}),
      },
      timeout: 30000,
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => { text += c; });
      res.on('end', () => {
        let json;
        try { json = JSON.parse(text); } catch { json = undefined; }
        resolve({ status: res.statusCode, body: json, text });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${urlPath} timed out`)));
    req.on('error', reject);
    if (data) req.write(data);
    req.end();
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// How long a check waits for a controller to act (CLUSTER_JOB_WAIT_SECONDS, 60 by default).
const JOB_WAIT_SECONDS = Number(process.env.CLUSTER_JOB_WAIT_SECONDS || 60);

// Polls fn once a second until it returns something truthy or `seconds` pass; returns its last value.
async function waitUntil(fn, seconds = JOB_WAIT_SECONDS) {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await fn();
    if (value || Date.now() > deadline) return value;
    await sleep(1000);
  }
}

// Maps apiVersion + kind to the REST path through API discovery, as kubectl does.
const discovery = new Map();
async function resourceFor(apiVersion, kind) {
  if (!discovery.has(apiVersion)) {
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    const res = await request('GET', base);
    if (res.status !== 200) throw new Error(`discovery of ${apiVersion} returned ${res.status}`);
    discovery.set(apiVersion, { base, resources: res.body.resources });
  }
  const { base, resources } = discovery.get(apiVersion);
  const r = resources.find((x) => x.kind === kind && !x.name.includes('/'));
  if (!r) throw new Error(`${apiVersion} ${kind} is not served`);
  return { base, plural: r.name, namespaced: r.namespaced };
}

async function collectionPath(doc) {
  const { base, plural, namespaced } = await resourceFor(doc.apiVersion, doc.kind);
  return namespaced ? `${base}/namespaces/${doc.metadata.namespace || 'default'}/${plural}` : `${base}/${plural}`;
}

// Creates a document with server-side strict field validation: an unknown or duplicate
// field is an error, not a warning. Returns undefined when accepted, else the message.
async function create(doc) {
  const res = await request('POST', `${await collectionPath(doc)}?fieldValidation=Strict`, doc);
  if (res.status === 201 || res.status === 200) return undefined;
  return `${res.status} ${(res.body && res.body.message) || res.text}`;
}

async function createOrFail(doc) {
  const err = await create(doc);
  if (err) throw new Error(`${doc.kind} ${doc.metadata.name}: ${err}`);
}

async function list(urlPath) {
  const res = await request('GET', urlPath);
  if (res.status !== 200) throw new Error(`GET ${urlPath} returned ${res.status}`);
  return res.body.items;
}

const readDocs = (file) => yaml.loadAll(fs.readFileSync(file, 'utf8')).filter((d) => d);

// Creates without storing anything (dry run), with strict field validation.
async function createDryRun(doc) {
  const res = await request('POST', `${await collectionPath(doc)}?dryRun=All&fieldValidation=Strict`, doc);
  return res.status === 201 || res.status === 200 ? undefined : `${res.status} ${(res.body && res.body.message) || res.text}`;
}

// Reads one object; undefined when it does not exist.
async function get(urlPath) {
  const res = await request('GET', urlPath);
  if (res.status === 404) return undefined;
  if (res.status !== 200) throw new Error(`GET ${urlPath} returned ${res.status}`);
  return res.body;
}

// A JSON merge patch (RFC 7386), as `kubectl patch --type merge` sends it.
async function mergePatch(urlPath, body) {
  const res = await request('PATCH', urlPath, body, 'application/merge-patch+json');
  if (res.status !== 200) throw new Error(`PATCH ${urlPath} returned ${res.status} ${(res.body && res.body.message) || res.text}`);
  return res.body;
}

module.exports = { request, sleep, waitUntil, resourceFor, collectionPath, create, createOrFail, createDryRun, list, get, mergePatch, readDocs };
