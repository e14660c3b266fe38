/**
 * Ready-made operations the explorers open with (one tab each): what a front-end developer tries
 * first. They are checked against the committed schema by test/http/explorer.test.ts and used as
 * the GraphQL Code Generator example in test/http/codegen.test.ts.
 */
export interface ExampleOperation {
  readonly title: string;
  readonly query: string;
  readonly variables?: Record<string, unknown>;
}

export const EXAMPLES: readonly ExampleOperation[] = [
  {
    title: 'List people',
    query: `# People, 20 at a time: pass pageInfo.endCursor as $after for the next page.
query ListPeople($after: String) {
  people(first: 20, after: $after, orderBy: [{ field: LAST_NAME, direction: ASC }]) {
    totalCount
    pageInfo { hasNextPage endCursor }
    nodes {
      id
      databaseId
      fullName
      email
      company { name }
      owner { fullName }
    }
  }
}
`,
  },
  {
    title: 'Filter',
    query: `# Operators per field, composed with and / or / not.
query FilterPeople {
  people(
    first: 10
    filter: {
      or: [{ lastName: { startsWith: "Co" } }, { companyName: { contains: "acme" } }]
      not: { type: { eq: LEAD } }
    }
  ) {
    nodes { databaseId fullName companyName type }
  }
}
`,
  },
  {
    title: 'Deals',
    query: `# Deals with totals over every match, filtered on their company and their people.
query Pipeline {
  deals(
    first: 20
    orderBy: [{ field: EXPECTED_CLOSE_DATE, direction: ASC }]
    filter: { company: { name: { contains: "a" } }, people: { some: { anyEmail: { contains: ".example" } } } }
  ) {
    totals { value count }
    nodes {
      databaseId
      name
      value
      probability
      dealStage { name percent }
      company { name }
      people(first: 5) { nodes { fullName } }
    }
  }
}
`,
  },
  {
    title: 'Create',
    query: `# Mutations answer a payload: the record, or userErrors (nothing written).
mutation CreatePerson($input: PersonCreateInput!) {
  createPerson(input: $input) {
    person { id databaseId fullName }
    userErrors { field code message }
  }
}
`,
    variables: { input: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.test' } },
  },
  {
    title: 'Update (user errors)',
    query: `# A blank last name is refused as a user error on ["input", "lastName"].
mutation UpdatePerson($id: Int!) {
  updatePerson(id: $id, input: { lastName: "" }) {
    person { id fullName }
    userErrors { field code message }
  }
}
`,
    variables: { id: 1 },
  },
];
