import { Field, InputType, Int, ObjectType, registerEnumType, type ClassType } from 'type-graphql';

@ObjectType('Pagination', { simpleResolvers: true })
export class Pagination {
  @Field(() => Int) page!: number;
  @Field(() => Int) perPage!: number;
  @Field(() => Int, { description: 'Matching records across all pages' }) total!: number;
  @Field(() => Int, { description: 'ceil(total / perPage)' }) pages!: number;
}

export interface Page<T> {
  entries: T[];
  pagination: Pagination;
}

/** `{entries, pagination}` for any item type: `@ObjectType() class PersonPage extends PageOf(Person) {}`. */
export function PageOf<T extends object>(item: ClassType<T>) {
  @ObjectType({ simpleResolvers: true })
  abstract class PageClass implements Page<T> {
    @Field(() => [item]) entries!: T[];
    @Field(() => Pagination) pagination!: Pagination;
  }
  return PageClass;
}

export const MAX_PER_PAGE = 200;

@InputType('PageInput')
export class PageInput {
  @Field(() => Int, { defaultValue: 1 }) page: number = 1;
  @Field(() => Int, { nullable: true, description: `Default per list (100; admin lists 200); at most ${MAX_PER_PAGE}, larger values are clamped` })
  perPage?: number | null;
}

export function normalizePage(input: PageInput | undefined, fallbackPerPage = 100): { page: number; perPage: number; offset: number } {
  const page = Math.min(Math.max(Math.trunc(input?.page ?? 1), 1), 1_000_000);
  const perPage = Math.min(Math.max(Math.trunc(input?.perPage ?? fallbackPerPage), 1), MAX_PER_PAGE);
  return { page, perPage, offset: (page - 1) * perPage };
}

export function toPage<T>(entries: T[], total: number, page: { page: number; perPage: number }): Page<T> {
  return { entries, pagination: { page: page.page, perPage: page.perPage, total, pages: Math.ceil(total / page.perPage) } };
}

@InputType('DateTimeRange', { description: 'Either bound may be omitted; both are inclusive' })
export class DateTimeRange {
  @Field(() => Date, { nullable: true }) from?: Date | null;
  @Field(() => Date, { nullable: true }) to?: Date | null;
}

@InputType('NumberRange')
export class NumberRange {
  @Field(() => Number, { nullable: true }) from?: number | null;
  @Field(() => Number, { nullable: true }) to?: number | null;
}

export enum SortDirection {
  ASC = 'ASC',
  DESC = 'DESC',
}
registerEnumType(SortDirection, { name: 'SortDirection' });

@ObjectType('CompanyRef', { simpleResolvers: true, description: 'A convenience object: shown whatever the viewer may see of the company itself' })
export class CompanyRef {
  @Field(() => Int) id!: number;
  @Field() name!: string;
}
