import 'reflect-metadata';
import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { accountWide } from '../../src/context/visibility';
import { defineResource } from '../../src/kit/fields';
import { recordResource } from '../../src/modules/common/record-resource';

/** A record resource is one declaration; what it cannot do by default it says at once, naming the resource. */
describe('record resources', () => {
  @Entity({ tableName: 'gizmos' })
  @ObjectType('Gizmo')
  class Gizmo {
    @PrimaryKey({ type: 'integer' }) id!: number;
    @Field(() => Int) databaseId!: number;
    @Field() @Property({ type: 'string' }) name!: string;
  }
  const names = { plural: 'gizmos', entity: Gizmo, alias: 'g', defaultOrder: ['name'], createDoc: 'c', updateDoc: 'u', filterDoc: 'f' };

  it('needs a visibility rule', () => {
    const fields = defineResource({ ...names, type: 'GizmoA' }, { name: { kind: 'text', write: 'auto', sort: 'ci' } });
    expect(() => recordResource({ fields, singular: 'gizmo', plural: 'gizmos' })).toThrow(
      "GizmoA: a record resource states its visibility, in its field table's names or as `records`",
    );
  });

  it('needs the create and update steps of its own when a field is written by its own rule', () => {
    const fields = defineResource(
      { ...names, type: 'GizmoB', visibility: accountWide() },
      { name: { kind: 'text', write: 'auto', sort: 'ci' }, ownerId: { kind: 'ref', write: 'custom' } },
    );
    expect(() => recordResource({ fields, singular: 'gizmo', plural: 'gizmos' })).toThrow(
      "GizmoB: ownerId are written by the resource's own rule: give the create step",
    );
    expect(() => recordResource({ fields, singular: 'gizmo', plural: 'gizmos', offers: ['list', 'show', 'delete'] })).not.toThrow();
  });

  it('offers every operation unless told fewer, with the default steps', () => {
    const fields = defineResource(
      { ...names, type: 'GizmoC', visibility: accountWide() },
      { name: { kind: 'text', write: 'auto', required: true, sort: 'ci' } },
    );
    const resource = recordResource({ fields, singular: 'gizmo', plural: 'gizmos' });
    expect(resource.records).toMatchObject({ entity: Gizmo, alias: 'g', name: 'GizmoC' });
    expect(Object.keys(resource.steps).sort()).toEqual(['create', 'delete', 'get', 'list', 'update']);
    expect(resource.resolver.name).toBe('GizmoCResolver');
  });
});
