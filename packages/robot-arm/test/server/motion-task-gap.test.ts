/**
 * A motion task is created after an await (the task record is written to the store before the
 * CreateTaskResult goes out). A stop in that gap must void the motion, as it voids a pending
 * approval: the store here runs stop_arm's controller stop exactly while the task record is written.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryStore, createServer, type Store } from 'toolwright';
import { connect } from 'toolwright/client';
import { ApprovalGate } from '../../server/approval-gate.js';
import { AuditLog, readAuditLog } from '../../server/audit-log.js';
import { RobotController } from '../../server/robot-controller.js';
import type { RobotDeps } from '../../server/robot-deps.js';
import { MotionRateLimits } from '../../server/motion-rate-limits.js';
import { AuditChainGate } from '../../server/audit-chain-gate.js';
import { steppedPacer } from '../../driver/sim-pacer.js';
import { moveArmToPoseTool } from '../../server/tools/move-arm-to-pose.js';
import { SimArmDriver } from '../../driver/sim-arm-driver.js';

describe('a stop between the safety check and the start of a motion task', () => {
  it('voids the motion: the task completes with the stopped_before_start refusal and the arm never moves', async () => {
    const auditPath = join(mkdtempSync(join(tmpdir(), 'robot-gap-')), 'audit.jsonl');
    const driver = new SimArmDriver({ pacer: steppedPacer(20) });
    const controller = new RobotController({ model: driver.model, driver });
    const audit = new AuditLog(auditPath);
    const deps: RobotDeps = { model: controller.model, controller, approval: new ApprovalGate('off'), audit, auditChain: new AuditChainGate(audit), rateLimits: new MotionRateLimits() };
    const memory = createMemoryStore();
    let stopsInGap = 0;
    // Every method of the memory store, with the stop run while a task record is first written.
    const store = new Proxy(memory, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (key !== 'compareAndSet' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
        return async (...args: Parameters<Store['compareAndSet']>) => {
          if (args[0].startsWith('task:') && args[1] === 0) {
            stopsInGap++;
            await controller.stop('controlled', 'stop_arm in the gap');
          }
          return memory.compareAndSet(...args);
        };
      },
    });
    const server = createServer({ name: 'gap', version: '0.0.0', tools: [moveArmToPoseTool(deps)], store });
    const listener = await server.listen({ port: 0, host: '127.0.0.1' });
    const client = connect(listener.url, { onWarning: () => {} });
    try {
      const start = driver.sim.tcp;
      const task = await client.callTool('move_arm_to_pose', { target_position: { x_mm: -400, y_mm: -300, z_mm: 150 } }, { task: true });
      assert.equal(typeof task.taskId, 'string');
      const result = await task.result();
      assert.equal(stopsInGap, 1);
      assert.equal(result.isError, true);
      assert.deepEqual((result.structuredContent as { refused?: unknown }).refused, { stage: 'state_gate', code: 'stopped_before_start', message: 'the arm was stopped after this motion was checked and before it started' });
      assert.deepEqual(driver.sim.tcp, start);
      assert.equal(readAuditLog(auditPath).records.some((r) => r.type === 'motion_start'), false);
      const record = readAuditLog(auditPath).records.find((r) => r.type === 'tool_call');
      assert.equal(record?.task_id, task.taskId);
      assert.equal(record?.outcome, 'error');
    } finally {
      await client.close();
      await listener.close();
      await server.close();
      deps.audit.close();
    }
  });
});
