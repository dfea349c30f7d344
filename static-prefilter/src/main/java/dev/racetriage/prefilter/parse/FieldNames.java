package dev.racetriage.prefilter.parse;

import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.jdt.core.dom.ASTNode;
import org.eclipse.jdt.core.dom.ASTVisitor;
import org.eclipse.jdt.core.dom.AbstractTypeDeclaration;
import org.eclipse.jdt.core.dom.AnonymousClassDeclaration;
import org.eclipse.jdt.core.dom.ChildListPropertyDescriptor;
import org.eclipse.jdt.core.dom.ChildPropertyDescriptor;
import org.eclipse.jdt.core.dom.Expression;
import org.eclipse.jdt.core.dom.FieldAccess;
import org.eclipse.jdt.core.dom.FieldDeclaration;
import org.eclipse.jdt.core.dom.IBinding;
import org.eclipse.jdt.core.dom.ITypeBinding;
import org.eclipse.jdt.core.dom.IVariableBinding;
import org.eclipse.jdt.core.dom.Initializer;
import org.eclipse.jdt.core.dom.LambdaExpression;
import org.eclipse.jdt.core.dom.MethodDeclaration;
import org.eclipse.jdt.core.dom.QualifiedName;
import org.eclipse.jdt.core.dom.SimpleName;
import org.eclipse.jdt.core.dom.SingleVariableDeclaration;
import org.eclipse.jdt.core.dom.StructuralPropertyDescriptor;
import org.eclipse.jdt.core.dom.ThisExpression;
import org.eclipse.jdt.core.dom.VariableDeclarationFragment;

/**
 * Tells which names in a unit denote project fields, and gives their field keys. Uses JDT's variable bindings; when
 * a binding is missing (no classpath, a syntax error) it falls back to the fields declared by the enclosing classes of
 * this unit, unless a local variable or parameter of the same name shadows them.
 */
public final class FieldNames {

  /** A name that denotes a project field. */
  public record ResolvedField(String key, boolean isStatic, boolean isVolatile, boolean viaBinding) {
    public String owner() {
      return key.substring(0, key.lastIndexOf('.'));
    }
  }

  private final TypeNames typeNames;
  private final Map<ASTNode, Map<String, Integer>> declaredFields = new HashMap<>();
  private final Map<ASTNode, Set<String>> localNames = new HashMap<>();

  public FieldNames(TypeNames typeNames) {
    this.typeNames = typeNames;
  }

  public Optional<ResolvedField> resolve(SimpleName name) {
    if (name.isDeclaration()) {
      return Optional.empty();
    }
    IBinding binding = name.resolveBinding();
    if (binding != null && !(binding instanceof IVariableBinding)) {
      return Optional.empty();
    }
    if (binding instanceof IVariableBinding variable && !variable.isRecovered()) {
      return fromBinding(variable);
    }
    return byName(name);
  }

  /** The field an expression reads or writes when it is just a field ({@code f}, {@code this.f}, {@code a.f}). */
  public Optional<ResolvedField> resolve(Expression expression) {
    Expression e = Expressions.strip(expression);
    if (e instanceof SimpleName simple) {
      return resolve(simple);
    }
    if (e instanceof FieldAccess access) {
      return resolve(access.getName());
    }
    if (e instanceof QualifiedName qualified) {
      return resolve(qualified.getName());
    }
    return Optional.empty();
  }

  private Optional<ResolvedField> fromBinding(IVariableBinding variable) {
    if (!variable.isField()) {
      return Optional.empty();
    }
    IVariableBinding declaration = variable.getVariableDeclaration();
    ITypeBinding declaringClass = declaration.getDeclaringClass();
    if (declaringClass == null || !declaringClass.isFromSource()) {
      return Optional.empty(); // array length, library fields
    }
    String owner = TypeNames.binaryName(declaringClass);
    if (owner == null) {
      return Optional.empty();
    }
    return Optional.of(new ResolvedField(owner + "." + declaration.getName(),
        Modifier.isStatic(declaration.getModifiers()), Modifier.isVolatile(declaration.getModifiers()), true));
  }

  private Optional<ResolvedField> byName(SimpleName name) {
    if (!inExpressionPosition(name)) {
      return Optional.empty();
    }
    String id = name.getIdentifier();
    if (!(name.getParent() instanceof FieldAccess) && shadowedByLocal(name, id)) {
      return Optional.empty();
    }
    for (ASTNode n = name.getParent(); n != null; n = n.getParent()) {
      if (n instanceof AbstractTypeDeclaration || n instanceof AnonymousClassDeclaration) {
        Integer modifiers = fieldsOf(n).get(id);
        if (modifiers != null) {
          return Optional.of(new ResolvedField(typeNames.nameOf(n) + "." + id, Modifier.isStatic(modifiers),
              Modifier.isVolatile(modifiers), false));
        }
      }
    }
    return Optional.empty();
  }

  private static boolean inExpressionPosition(SimpleName name) {
    StructuralPropertyDescriptor location = name.getLocationInParent();
    if (location == FieldAccess.NAME_PROPERTY) {
      return ((FieldAccess) name.getParent()).getExpression() instanceof ThisExpression;
    }
    if (location == QualifiedName.QUALIFIER_PROPERTY) {
      return true;
    }
    if (location instanceof ChildPropertyDescriptor child) {
      return child.getChildType() == Expression.class;
    }
    if (location instanceof ChildListPropertyDescriptor list) {
      return list.getElementType() == Expression.class;
    }
    return false;
  }

  private boolean shadowedByLocal(SimpleName name, String id) {
    for (ASTNode n = name.getParent(); n != null; n = n.getParent()) {
      if (n instanceof MethodDeclaration || n instanceof LambdaExpression || n instanceof Initializer) {
        if (localNames.computeIfAbsent(n, FieldNames::collectLocals).contains(id)) {
          return true;
        }
      }
      if (n instanceof AbstractTypeDeclaration || n instanceof AnonymousClassDeclaration) {
        return false;
      }
    }
    return false;
  }

  private static Set<String> collectLocals(ASTNode body) {
    Set<String> names = new HashSet<>();
    body.accept(new ASTVisitor() {
      @Override
      public boolean visit(SingleVariableDeclaration node) {
        names.add(node.getName().getIdentifier());
        return true;
      }

      @Override
      public boolean visit(VariableDeclarationFragment node) {
        if (!(node.getParent() instanceof FieldDeclaration)) {
          names.add(node.getName().getIdentifier());
        }
        return true;
      }

      @Override
      public boolean visit(AnonymousClassDeclaration node) {
        return false;
      }
    });
    return names;
  }

  /** Field name to modifiers ({@link Modifier} bits; interface fields count as static). */
  private Map<String, Integer> fieldsOf(ASTNode type) {
    return declaredFields.computeIfAbsent(type, t -> {
      Map<String, Integer> fields = new HashMap<>();
      for (Object decl : bodyDeclarations(t)) {
        if (decl instanceof FieldDeclaration field) {
          boolean inInterface = t instanceof org.eclipse.jdt.core.dom.TypeDeclaration td && td.isInterface();
          int modifiers = field.getModifiers() | (inInterface ? Modifier.STATIC | Modifier.FINAL : 0);
          for (Object fragment : field.fragments()) {
            fields.put(((VariableDeclarationFragment) fragment).getName().getIdentifier(), modifiers);
          }
        }
      }
      return fields;
    });
  }

  private static java.util.List<?> bodyDeclarations(ASTNode type) {
    if (type instanceof AbstractTypeDeclaration declaration) {
      return declaration.bodyDeclarations();
    }
    return ((AnonymousClassDeclaration) type).bodyDeclarations();
  }
}
